"""A kernel file whose tile configuration another test file imports without calling the kernel."""
from dataclasses import dataclass

import pypto


@dataclass
class TileConfig:
    rows: int = 4


@pypto.frontend.jit()
def halve_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32), out: pypto.Tensor([4, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 8)
    out[:] = x * 0.5
