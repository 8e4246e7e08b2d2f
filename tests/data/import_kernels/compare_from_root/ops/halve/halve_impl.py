"""A kernel whose test imports the repository's comparison inside its body, from the folder that
pytest puts on sys.path because it holds a conftest.py."""
import pypto


@pypto.frontend.jit
def halve(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.mul(x, 0.5)
