# expect: 9:5 kernel.unsupported not supported by the simulator: a for loop over anything but pypto.loop(...) or range(...)
# expect: 11:9 kernel.unsupported not supported by the simulator: unpacking a loop variable
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    rows, cols = x.shape
    for i in [1, 2]:
        pass
    for a, b in pypto.loop(rows):
        pass
