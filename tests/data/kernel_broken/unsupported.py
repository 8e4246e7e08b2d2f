# expect: 15:32 kernel.unknown-dtype pypto.DT_FP99 is not a dtype the simulator supports; did you mean 'DT_FP16'?
# expect: 16:5 kernel.return a kernel returns nothing: write results into its output parameters (out[:] = ...)
# Ordinary Python the checker does not model (while, with, print, dicts) is not an error: it runs.
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    while True:
        pass
    with open("f") as f:
        pass
    y[:] = print(x)
    options = {"a": 1}
    y[:] = pypto.cast(x, pypto.DT_FP99)
    return y
