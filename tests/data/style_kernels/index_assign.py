"""Slice assignment as PyPTO's assemble: int indices add a dim, negative starts, ellipsis."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    y[:] = pypto.full([4, 4], 0.0, pypto.DT_FP32)
    y[0, 1:3] = x[0, 0:2]
    y[-1, -3:-1] = x[1, 0:2]
    y[..., 3:4] = x[:, 0:1] * 0.0 + 7.0
