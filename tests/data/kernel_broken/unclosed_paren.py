# expect: 7:21 kernel.syntax '(' was never closed
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    y[:] = pypto.exp(pypto.mul(x, 2.0)
