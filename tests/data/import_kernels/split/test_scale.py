"""The tests of scale_impl.py: a golden, a parametrized test and one that fails."""
import pytest
import torch
from scale_impl import scale_kernel

OFFSET = 0.0


def scale_golden(x: torch.Tensor, factor: float) -> torch.Tensor:
    return x * factor + OFFSET


@pytest.mark.parametrize("rows, factor", [(8, 0.5), (16, 2.0)])
def test_scale(rows, factor):
    x = torch.randn(rows, 32, dtype=torch.float32)
    out = torch.empty_like(x)
    scale_kernel(x, out, factor)
    torch.testing.assert_close(out, scale_golden(x, factor), rtol=1e-5, atol=1e-5)


def test_broken():
    raise ValueError("this test fails on its own")
