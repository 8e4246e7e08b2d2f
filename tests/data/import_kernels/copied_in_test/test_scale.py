"""The test of scale_impl.py: it runs its own copy of the kernel in the simulator."""
import torch
from scale_impl import scale_rows

import pypto


@pypto.frontend.jit
def scale_kernel_sim(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32), y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)
):
    scale_rows(x, y, 1.5)


def scale_golden(x):
    return x * 1.5


def test_scale():
    x = torch.randn(16, 32)
    y = torch.empty(16, 32)
    scale_kernel_sim(x, y)
    torch.testing.assert_close(y, scale_golden(x))
