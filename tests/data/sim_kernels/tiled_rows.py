"""Nested loops over row and column tiles: views, slice assignment and loop markers."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float):
    rows, cols = x.shape
    tile_r, tile_c = 2, 16
    pypto.set_vec_tile_shapes(tile_r, tile_c)
    for i in pypto.loop(0, rows, tile_r, name="ROWS", idx_name="i"):
        for j in pypto.loop(cols // tile_c):
            block = pypto.view(x, [tile_r, tile_c], [i, j * tile_c])
            if pypto.is_loop_begin(i) or pypto.is_loop_end(j):
                pass
            y[i:i + tile_r, j * tile_c:(j + 1) * tile_c] = block * scale + i
