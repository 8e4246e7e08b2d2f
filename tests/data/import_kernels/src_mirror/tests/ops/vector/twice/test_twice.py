"""The test of the twice operator: it imports the wrapper module, which imports the kernel file."""
import os
import sys

import torch

ROOT = os.path.dirname(os.path.abspath(__file__))
while not os.path.isdir(os.path.join(ROOT, "src")):
    ROOT = os.path.dirname(ROOT)
sys.path.insert(0, os.path.join(ROOT, "src", "kernels", "ops", "tile"))

from vector.twice.twice_wrapper import twice  # noqa: E402


def test_twice():
    for rows in (8, 16):
        x = torch.randn(rows, 32)
        torch.testing.assert_close(twice(x), x * 2, rtol=1e-6, atol=1e-6)
