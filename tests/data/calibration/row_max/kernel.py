"""y = the max of each row (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def row_max_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.view(x, [1, cols], [i, 0])
        y[i:i + 1, :] = pypto.amax(v, dim=-1, keepdim=True)
