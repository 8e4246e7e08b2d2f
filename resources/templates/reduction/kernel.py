"""@OP_TYPE@: the sum of each row, one row view per loop step, reduced tile by tile."""
import pypto


@pypto.frontend.jit()
def @NAME@_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        row = pypto.view(x, [1, cols], [i, 0])
        y[i:i + 1, :] = pypto.sum(row, dim=-1, keepdim=True)
