"""y = x / sqrt(mean(x^2) + 1e-6) per row (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def rms_rows_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 128)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.view(x, [1, cols], [i, 0])
        ms = pypto.sum(v * v, dim=-1, keepdim=True) * (1.0 / cols)
        y[i:i + 1, :] = v * pypto.rsqrt(ms + 1e-6)
