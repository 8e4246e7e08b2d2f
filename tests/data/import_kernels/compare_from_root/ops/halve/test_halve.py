import torch

from halve_impl import halve


def run_case(rows):
    x = torch.randn(rows, 8)
    out = torch.zeros(rows, 8)
    golden = x * 0.5
    halve(x, out)
    from checks.compare import compare

    compare(out, golden, "out", atol=1e-4, rtol=1e-3, max_error_ratio=0.01)


def test_halve():
    run_case(16)
