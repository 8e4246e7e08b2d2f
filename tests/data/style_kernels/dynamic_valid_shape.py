"""A dynamic dim bound by the call, tiles with valid_shape at the boundary, ceildiv and pypto.min."""
import pypto

N = pypto.frontend.dynamic("N")
TILE = 3


@pypto.frontend.jit()
def kernel(x: pypto.Tensor([N, 16], pypto.DT_FP32), y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(TILE, 16)
    for t in pypto.loop(pypto.ceildiv(N, TILE)):
        valid = pypto.min(TILE, N - t * TILE)
        block = pypto.view(x, [TILE, 16], [t * TILE, 0], valid_shape=[valid, 16])
        y[t * TILE:, :] = block * 2.0
