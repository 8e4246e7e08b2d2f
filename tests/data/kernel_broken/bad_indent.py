# expect: 8:11 kernel.syntax unindent does not match any outer indentation level
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    rows, cols = x.shape
  y[:] = x
