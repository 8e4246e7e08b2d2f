"""The test of src/shift_impl.py, which it finds by putting ../src and ../golden on its path."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
from shift_golden import shift_golden; from shift_impl import shift_kernel  # noqa: E402, E702


def test_shift():
    for rows in (8, 24):
        x = torch.randn(rows, 32)
        y = torch.empty_like(x)
        shift_kernel(x, y)
        assert torch.allclose(y, shift_golden(x), rtol=1e-6, atol=1e-6)
