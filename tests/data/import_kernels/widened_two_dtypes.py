"""A kernel the test runs in bfloat16 and in float16, comparing both widened to float32: the
output's dtype follows x's, so the reference casts back to x.dtype, not to the first call's."""
import torch

import pypto


@pypto.frontend.jit
def half_kernel(x: pypto.Tensor(), y: pypto.Tensor()):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, 0.5)


def test_half_in_two_dtypes():
    for dtype in (torch.bfloat16, torch.float16):
        x = torch.randn(16, 32).to(dtype)
        y = torch.zeros(16, 32, dtype=dtype)
        half_kernel(x, y)
        torch.testing.assert_close(y.to(torch.float32), (x * 0.5).to(torch.float32))
