"""A golden that reads the file's module constants, as PyPTO's attention example does: the
reference is one function, so the constants come along as their values."""
import torch

import pypto

HEADS = 4
SCALE = 0.5
rows = 99  # a module name the golden assigns itself: its own value stays


def heads_golden(x: torch.Tensor) -> torch.Tensor:
    rows = x.shape[0]
    return (x.reshape(rows, HEADS, -1) * SCALE).reshape(rows, -1)


@pypto.frontend.jit
def heads_kernel(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.mul(x, SCALE)


def test_heads():
    x = torch.randn(8, 16, dtype=torch.float32)
    out = torch.empty(8, 16, dtype=torch.float32)
    heads_kernel(x, out)
    torch.testing.assert_close(out, heads_golden(x), rtol=1e-5, atol=1e-5)
