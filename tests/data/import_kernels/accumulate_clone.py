"""x added into an accumulator the test passes as a clone of its old value, and x doubled; the
test writes the expected accumulator over the original."""
import torch

import pypto


@pypto.frontend.jit()
def accumulate_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32),
                      doubled: pypto.Tensor([4, 8], pypto.DT_FP32),
                      acc_out: pypto.Tensor([4, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 8)
    doubled[:] = x * 2
    acc_out[:] = acc_out + x


def test_accumulate():
    x = torch.randn(4, 8)
    acc = torch.randn(4, 8)
    doubled = torch.empty(4, 8)
    acc_out = acc.clone()
    accumulate_kernel(x, doubled, acc_out)
    torch.testing.assert_close(acc_out, acc + x)
    torch.testing.assert_close(doubled, x * 2)
