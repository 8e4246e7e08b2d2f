"""x times w, for a test that computes its golden in the branch its flag picks."""
import pypto


@pypto.frontend.jit()
def rows_times(
    x: pypto.Tensor([8, 4], pypto.DT_FP32),
    w: pypto.Tensor([4, 4], pypto.DT_FP32),
    out: pypto.Tensor([8, 4], pypto.DT_FP32),
):
    pypto.set_cube_tile_shapes([8, 8], [8, 8], [8, 8])
    out[:] = pypto.matmul(x, w, pypto.DT_FP32)
