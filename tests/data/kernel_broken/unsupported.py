# expect: 12:5 kernel.unsupported not supported by the simulator: 'while' statements
# expect: 14:5 kernel.unsupported not supported by the simulator: 'with' statements
# expect: 16:12 kernel.unsupported not supported by the simulator: calling 'print'
# expect: 17:15 kernel.unsupported not supported by the simulator: dict literals
# expect: 18:32 kernel.unknown-dtype pypto.DT_FP99 is not a dtype the simulator supports; did you mean 'DT_FP16'?
# expect: 19:5 kernel.return a kernel returns nothing: write results into its output parameters (out[:] = ...)
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
