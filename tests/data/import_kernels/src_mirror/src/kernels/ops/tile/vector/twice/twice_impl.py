"""A kernel whose test imports it through a wrapper module beside it (twice_wrapper.py), never by
its own name."""
import pypto


@pypto.frontend.jit
def twice_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y.move(pypto.add(x, x))
