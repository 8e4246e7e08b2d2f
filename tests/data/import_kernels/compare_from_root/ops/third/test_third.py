import torch

from third_impl import third


def test_third():
    x = torch.randn(16, 8)
    out = torch.zeros(16, 8)
    golden = x * 0.25
    third(x, out)
    import checks.compare as checking

    checking.compare(out, golden, "out", atol=1e-4, rtol=1e-3, max_error_ratio=0.01)
