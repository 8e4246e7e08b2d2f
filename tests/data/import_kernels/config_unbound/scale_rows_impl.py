"""A kernel whose config class lives in tiles.py, which this file imports a helper from but
never names the class of: the test builds the config."""
import torch

import pypto
from tiles import tile_rows


@pypto.frontend.jit
def scale_rows(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    tiles,
):
    pypto.set_vec_tile_shapes(tile_rows(tiles), 16)
    out[:] = pypto.mul(x, tiles.factor)


def test_scale_rows():
    from tiles import RowTiles

    x = torch.randn(16, 16)
    out = torch.zeros(16, 16)
    scale_rows(x, out, RowTiles(rows=4, factor=3.0))
    torch.testing.assert_close(out, x * 3.0)
