import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], mode: str, steps: int):
    n = len(x.shape)
    acc = x * 0.0
    for s in range(min(steps, 4)):
        if mode == "add" and n == 2:
            acc = acc + x
        elif mode == "mul":
            acc = acc * x
        else:
            acc += 1.0
    y[...] = acc if steps > 0 else x
