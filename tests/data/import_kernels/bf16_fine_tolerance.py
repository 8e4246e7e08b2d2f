"""A bfloat16 kernel its test compares at rtol 3e-3 and atol 3e-3, as PyPTO's FFN example does:
finer than one rounding step of bfloat16 (2^-7 of the value) for values above 0.62."""
import torch

import pypto


@pypto.frontend.jit
def double_kernel(x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_BF16), y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_BF16)):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, 2.0)


def test_double():
    x = torch.randn(16, 32).to(torch.bfloat16)
    y = torch.empty_like(x)
    double_kernel(x, y)
    torch.testing.assert_close(y, x * 2.0, rtol=3e-3, atol=3e-3)
