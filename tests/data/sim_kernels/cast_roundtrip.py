import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32), h: pypto.Tensor([], pypto.DT_FP16)):
    half = pypto.cast(x, pypto.DT_FP16)
    h[:] = half * 2.0
    y[:] = pypto.cast(half, pypto.DT_FP32)
