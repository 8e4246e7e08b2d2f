"""A kernel of a package that takes its factor from a sibling module, relatively."""
import torch

import pypto

from .factors import FACTOR


@pypto.frontend.jit
def scale_kernel(x: pypto.Tensor([8, 32], pypto.DT_FP32), y: pypto.Tensor([8, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, FACTOR)


def test_scale():
    x = torch.randn(8, 32)
    y = torch.zeros(8, 32)
    scale_kernel(x, y)
    torch.testing.assert_close(y, x * FACTOR)
