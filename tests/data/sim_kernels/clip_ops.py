import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], lo: pypto.Tensor[...], y: pypto.Tensor[...], hi: float):
    y[:] = pypto.clip(pypto.clip(x, min=-0.5), lo, hi)
