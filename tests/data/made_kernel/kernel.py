"""A kernel made by a factory, as PyPTO's tests write them: the factory takes a config (the tile
rows and the factor; a torch dtype it keeps at its default), the dtype and the tile columns (None:
its default), and the kernel reads them from its closure; the test calls the factory. op.json's
kernel.made_by names the factory and kernel.made_with gives its arguments."""
from dataclasses import dataclass

import torch

import pypto


@dataclass
class AddConfig:
    tile_rows: int = 8
    factor: float = 1.0
    accumulate: torch.dtype = torch.float32


def make_scaled_add(config, dtype, tile_cols):
    tile_cols = 32 if tile_cols is None else tile_cols
    assert config.accumulate is torch.float32, "the class's default torch dtype"

    @pypto.frontend.jit
    def scaled_add_kernel(a: pypto.Tensor([...], dtype), b: pypto.Tensor([...], dtype), y: pypto.Tensor()):
        pypto.set_vec_tile_shapes(config.tile_rows, tile_cols)
        y[:] = pypto.add(a, pypto.mul(b, config.factor))

    return scaled_add_kernel


def test_scaled_add():
    kernel = make_scaled_add(AddConfig(tile_rows=4, factor=2.0), pypto.DT_FP32, None)
    a = torch.rand(8, 32)
    b = torch.rand(32)
    y = torch.empty(8, 32)
    kernel(a, b, y)
    torch.testing.assert_close(y, a + b * 2.0)
