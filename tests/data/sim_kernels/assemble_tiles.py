import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    half = cols // 2
    for k in range(2):
        part = pypto.view(x, [rows, half], [0, k * half])
        pypto.assemble(pypto.exp(part) - k, [0, (1 - k) * half], y)
