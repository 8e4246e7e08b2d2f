import torch

from halve_impl import halve
from tolerant_compare import compare


def test_halve():
    x = torch.randn(16, 8)
    out = torch.zeros(16, 8)
    halve(x, out)
    golden = x * 0.5
    golden[3, 5] += 1.0  # one element of 128 off: within the share the comparison allows
    compare(out, golden, "out", atol=1e-5, rtol=1e-5, max_error_ratio=0.05)
