"""Softmax over the last dim: loop over rows, one view per row."""
import pypto


@pypto.frontend.jit()
def softmax_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        row = pypto.view(x, [1, cols], [i, 0])
        row_max = pypto.amax(row, dim=-1, keepdim=True)
        e = pypto.exp(row - row_max)
        y[i:i + 1, :] = e / pypto.sum(e, dim=-1, keepdim=True)
