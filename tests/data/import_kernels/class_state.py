"""A kernel that reads a class attribute its test sets just before the call."""
import torch

import pypto


class Scale:
    factor = 1.0


@pypto.frontend.jit
def scale_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.mul(x, Scale.factor)


def test_scale():
    Scale.factor = 3.0
    x = torch.randn(8, 8)
    out = torch.zeros(8, 8)
    scale_kernel(x, out)
    torch.testing.assert_close(out, x * 3.0)
