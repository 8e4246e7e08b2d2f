import torch

from compare_helper import compare
from heads_impl import scaled_heads


def test_scaled_heads():
    x = torch.randn(4, 2, 16)
    result = scaled_heads(x)
    golden = x * 0.5
    compare(result, golden, "heads", atol=1e-5, rtol=1e-5)
