"""y = x + z, one row block of 8 per loop step (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def add_rows_kernel(x: pypto.Tensor[...], z: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(8, 64)
    for i in pypto.loop(rows // 8, name="LOOP_BLOCKS", idx_name="i"):
        a = pypto.view(x, [8, cols], [i * 8, 0])
        b = pypto.view(z, [8, cols], [i * 8, 0])
        y[i * 8:i * 8 + 8, :] = a + b
