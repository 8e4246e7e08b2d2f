"""Adds scaled rows into a running sum the caller owns, in place, and produces nothing else: an
op whose only result is the input it updates, as a cache update is."""
import pypto


@pypto.frontend.jit
def add_into_kernel(x: pypto.Tensor(), acc: pypto.Tensor(), scale: float):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, cols)
    for i in pypto.loop(rows):
        acc[i:i + 1, :] = pypto.view(acc, [1, cols], [i, 0]) + pypto.view(x, [1, cols], [i, 0]) * scale
