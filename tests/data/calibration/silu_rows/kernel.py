"""y = x * sigmoid(x), one row per loop step (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def silu_rows_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 128)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.view(x, [1, cols], [i, 0])
        y[i:i + 1, :] = v * pypto.sigmoid(v)
