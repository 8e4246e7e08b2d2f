import torch

from rows_impl import rows_times


def test_rows(transposed=False):
    x = torch.randn(8, 4)
    w = torch.randn(4, 4)
    out = torch.zeros(8, 4)
    rows_times(x, w, out)
    if not transposed:
        golden = torch.matmul(x, w)
    else:
        golden = torch.matmul(x.T, w)
    assert torch.allclose(out, golden, rtol=1e-4, atol=1e-4)
