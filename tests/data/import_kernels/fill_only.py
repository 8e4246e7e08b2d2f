"""A kernel that reads no tensor: it fills its output from a scalar, as pypto.full does. It
imports as an op with no input, whose output's shape the rules give alone."""
import torch

import pypto


@pypto.frontend.jit()
def fill_kernel(out: pypto.Tensor([8, 16], pypto.DT_FP32), value: float):
    pypto.set_vec_tile_shapes(8, 16)
    out.move(pypto.full([8, 16], value, pypto.DT_FP32))


def test_fill():
    out = torch.empty(8, 16)
    fill_kernel(out, 2.5)
    torch.testing.assert_close(out, torch.full((8, 16), 2.5))
