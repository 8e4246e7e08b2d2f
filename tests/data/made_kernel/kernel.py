"""A kernel made by a factory, as PyPTO's tests write them: the factory takes the tile rows, the
factor, the dtype and the tile columns (None: its default), and the kernel reads them from its
closure; the test calls the factory. op.json's kernel.made_by names the factory and
kernel.made_with gives its arguments."""
import torch

import pypto


def make_scaled_add(tile_rows, factor, dtype, tile_cols):
    tile_cols = 32 if tile_cols is None else tile_cols

    @pypto.frontend.jit
    def scaled_add_kernel(a: pypto.Tensor([...], dtype), b: pypto.Tensor([...], dtype), y: pypto.Tensor()):
        pypto.set_vec_tile_shapes(tile_rows, tile_cols)
        y[:] = pypto.add(a, pypto.mul(b, factor))

    return scaled_add_kernel


def test_scaled_add():
    kernel = make_scaled_add(4, 2.0, pypto.DT_FP32, None)
    a = torch.rand(8, 32)
    b = torch.rand(32)
    y = torch.empty(8, 32)
    kernel(a, b, y)
    torch.testing.assert_close(y, a + b * 2.0)
