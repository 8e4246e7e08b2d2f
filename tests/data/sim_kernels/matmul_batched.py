import pypto


@pypto.frontend.jit()
def kernel(a: pypto.Tensor[...], b: pypto.Tensor[...], y: pypto.Tensor[...]):
    y[:] = pypto.matmul(a, b, pypto.DT_FP32, b_trans=True) * 0.5
