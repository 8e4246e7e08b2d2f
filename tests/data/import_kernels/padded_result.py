"""A kernel that writes part of its output, which the test made with torch.zeros and compares with
a golden padded by `functional` (torch.nn.functional under its own name), reading a flag and the
padding from the test's config object."""
import torch
from torch.nn import functional

import pypto


class PadConfig:
    def __init__(self):
        self.negate = False
        self.pad = 16


@pypto.frontend.jit
def padded_double_kernel(
    x: pypto.Tensor([8, 16], pypto.DT_FP32),
    y: pypto.Tensor([8, 32], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 16)
    y[:, 0:16] = pypto.mul(x, 2.0)


def test_padded_double():
    config = PadConfig()
    x = torch.randn(8, 16)
    y = torch.zeros(8, 32)
    padded_double_kernel(x, y)
    doubled = -x * 2.0 if config.negate else x * 2.0
    golden = functional.pad(doubled, (0, config.pad))
    torch.testing.assert_close(y, golden)
