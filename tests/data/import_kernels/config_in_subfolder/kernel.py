"""A config class kept in a module of a subfolder, as PyPTO's interpreter tests keep theirs."""
import torch

import pypto
from _cfg.tiles import TileConfig


@pypto.frontend.jit
def halve_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    config: TileConfig,
):
    pypto.set_vec_tile_shapes(config.tile_rows, 32)
    y[:] = pypto.mul(x, 0.5)


def test_halve():
    x = torch.randn(16, 32)
    y = torch.empty(16, 32)
    halve_kernel(x, y, TileConfig(tile_rows=4))
    torch.testing.assert_close(y, x * 0.5)
