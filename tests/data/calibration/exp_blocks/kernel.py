"""y = exp(x - 1) in blocks of 4 rows (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def exp_blocks_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(4, 128)
    for i in pypto.loop(rows // 4, name="LOOP_BLOCKS", idx_name="i"):
        v = pypto.view(x, [4, cols], [i * 4, 0])
        y[i * 4:i * 4 + 4, :] = pypto.exp(v - 1.0)
