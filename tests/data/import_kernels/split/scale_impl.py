"""A kernel file with no host code of its own: its tests live beside it in test_scale.py, as in
PyPTO's models/."""
import pypto


@pypto.frontend.jit
def scale_kernel(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32), factor: float):
    pypto.set_vec_tile_shapes(4, 32)
    out[:] = pypto.mul(x, factor)
