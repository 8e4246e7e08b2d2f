"""Accumulates scaled rows into a running sum the caller owns (written in place), and returns the
scaled rows: a kernel with an input it mutates, as a cache update is."""
import pypto


@pypto.frontend.jit
def accumulate_kernel(x: pypto.Tensor(), acc: pypto.Tensor(), y: pypto.Tensor(), scale: float):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, cols)
    for i in pypto.loop(rows):
        scaled = pypto.view(x, [1, cols], [i, 0]) * scale
        y[i:i + 1, :] = scaled
        acc[i:i + 1, :] = pypto.view(acc, [1, cols], [i, 0]) + scaled
