"""A kernel of a package: the factor comes from a sibling module (relatively), the tile's rows
from a module at the project's top (absolutely), and that sibling imports a third module."""
import pypto

import tiling.rows
from .factors import FACTOR, TILE_COLUMNS


@pypto.frontend.jit
def scale_kernel(x: pypto.Tensor([...], pypto.DT_FP32), y: pypto.Tensor([...], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(tiling.rows.ROWS, TILE_COLUMNS)
    y[:] = pypto.mul(x, FACTOR)
