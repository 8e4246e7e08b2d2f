# expect: 3:6 kernel.syntax invalid syntax
import pypto
from import Tensor


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    y[:] = x
