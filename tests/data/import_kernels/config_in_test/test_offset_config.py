"""The test of offset_impl.py, which also holds the constant its kernel reads."""
import torch

OFFSET = 1.5


def test_offset():
    from offset_impl import offset_kernel

    x = torch.randn(16, 32)
    y = torch.empty(16, 32)
    offset_kernel(x, y)
    torch.testing.assert_close(y, x + OFFSET)
