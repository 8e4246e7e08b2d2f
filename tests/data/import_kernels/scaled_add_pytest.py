"""y = (a + b) * scale over 2-D tensors, tested the pytest way: parametrized shapes and dtypes,
one skipped case, and torch.testing.assert_close against a golden."""
import pytest
import torch

import pypto


def scaled_add_golden(a, b, scale):
    return (a + b) * scale


@pypto.frontend.jit
def scaled_add_kernel(a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32), b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                      y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32), scale: float):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(pypto.add(a, b), scale)


@pytest.mark.parametrize("rows", [4, pytest.param(1000, marks=pytest.mark.skip(reason="too slow")), 12])
@pytest.mark.parametrize("scale", [0.5])
def test_scaled_add(rows, scale):
    a = torch.randn(rows, 32)
    b = torch.randn(rows, 32)
    y = torch.zeros(rows, 32)
    scaled_add_kernel(a, b, y, scale)
    torch.testing.assert_close(y, scaled_add_golden(a, b, scale), rtol=1e-5, atol=1e-5)
