"""A kernel whose test checks it with a compare helper that lets a share of elements differ."""
import pypto


@pypto.frontend.jit
def halve(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.mul(x, 0.5)
