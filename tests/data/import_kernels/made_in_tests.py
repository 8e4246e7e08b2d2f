"""Kernels made inside functions, the way PyPTO's own tests write them: a test that defines its
kernel with a tile size of its own and calls it, and a parametrized test whose kernel a factory
builds from the case's factor."""
import pytest
import torch

import pypto

ROW = pypto.DYNAMIC


def make_scale_kernel(factor):
    @pypto.frontend.jit
    def scale_kernel(x: pypto.Tensor([ROW, 32], pypto.DT_FP32), y: pypto.Tensor([ROW, 32], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 32)
        y[:] = pypto.mul(x, factor)

    return scale_kernel


def test_add_defined_here():
    tile = 16

    @pypto.frontend.jit
    def add_kernel(
        a: pypto.Tensor([ROW, 32], pypto.DT_FP32),
        b: pypto.Tensor([ROW, 32], pypto.DT_FP32),
        out: pypto.Tensor([ROW, 32], pypto.DT_FP32),
    ):
        pypto.set_vec_tile_shapes(tile, 32)
        out[:] = pypto.add(a, b)

    a = torch.randn(24, 32)
    b = torch.randn(24, 32)
    out = torch.zeros(24, 32)
    add_kernel(a, b, out)
    torch.testing.assert_close(out, a + b)


@pytest.mark.parametrize("factor", [2.0, pytest.param(3.0, id="triple")])
def test_scale(factor):
    kernel = make_scale_kernel(factor)
    x = torch.randn(16, 32)
    y = torch.zeros(16, 32)
    kernel(x, y)
    torch.testing.assert_close(y, x * factor)
