"""A kernel whose test imports the repository's comparison module whole, inside its body."""
import pypto


@pypto.frontend.jit
def third(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.mul(x, 0.25)
