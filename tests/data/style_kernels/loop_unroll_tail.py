"""loop_unroll with an unroll list: blocks of 4, 2 and 1 rows cover 7 rows."""
import pypto
from pypto import loop_unroll, Tensor as PTensor


@pypto.frontend.jit()
def kernel(x: PTensor[...], y: PTensor[...]):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(4, cols)
    for i, n in loop_unroll(0, rows, 1, name="ROWS", idx_name="i", unroll_list=[4, 2]):
        block = pypto.view(x, [n, cols], [i, 0])
        y[i:, :] = pypto.exp(block) if n > 1 else -block
