"""A kernel that takes nothing but its output: it fills it with ones, and its test compares the
output with a constant built from a module global."""
import torch

import pypto

SHAPE = [8, 16]


@pypto.frontend.jit()
def ones_kernel(out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out.move(pypto.full([8, 16], 1.0, pypto.DT_FP32))


def test_ones():
    out = torch.zeros(SHAPE)
    ones_kernel(out)
    golden = torch.ones(SHAPE, dtype=torch.float32)
    assert torch.allclose(out, golden)
