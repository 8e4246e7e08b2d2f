"""Makes its output from its parameters alone: every element of out is value."""
import pypto


@pypto.frontend.jit
def filled_rows_kernel(
    out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    rows: int,
    value: float,
):
    pypto.set_vec_tile_shapes(1, 16)
    for r in pypto.loop(rows, name="LOOP_ROWS", idx_name="r"):
        out[r:r + 1, :] = pypto.full([1, 16], value, pypto.DT_FP32)
