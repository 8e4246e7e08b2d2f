"""y = x - mean(x) per row (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def center_rows_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.view(x, [1, cols], [i, 0])
        y[i:i + 1, :] = v - pypto.sum(v, dim=-1, keepdim=True) * (1.0 / cols)
