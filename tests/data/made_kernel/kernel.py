"""A kernel made inside its test, as PyPTO's tests write them: the test picks the tile rows and
the factor, and the kernel reads both from its closure. op.json's kernel.made_by names the test."""
import torch

import pypto


def test_scaled_add():
    tile_rows = 4
    factor = 2.0

    @pypto.frontend.jit
    def scaled_add_kernel(a: pypto.Tensor(), b: pypto.Tensor(), y: pypto.Tensor()):
        pypto.set_vec_tile_shapes(tile_rows, 32)
        y[:] = pypto.add(a, pypto.mul(b, factor))

    a = torch.rand(8, 32)
    b = torch.rand(32)
    y = torch.empty(8, 32)
    scaled_add_kernel(a, b, y)
    torch.testing.assert_close(y, a + b * factor)
