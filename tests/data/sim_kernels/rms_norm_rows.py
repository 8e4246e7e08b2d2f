"""RMS norm over the last dim, one row view per loop step, in the tensor's own dtype."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], w: pypto.Tensor[...], y: pypto.Tensor[...], eps: float):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 32)
    for r in pypto.loop(rows, name="ROWS", idx_name="r"):
        v = pypto.view(x, [1, cols], [r, 0])
        mean_sq = pypto.sum(v * v, dim=-1, keepdim=True) / cols
        y[r:r + 1, :] = v * pypto.rsqrt(mean_sq + eps) * w
