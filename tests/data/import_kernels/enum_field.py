"""A config whose field holds a pypto enum member the test set away from its default, which
op.json cannot write: import names the member and says how to keep it."""
from dataclasses import dataclass

import torch

import pypto


@dataclass
class Config:
    relu: pypto.ReLuType = pypto.ReLuType.NO_RELU


@pypto.frontend.jit
def add_kernel(a: pypto.Tensor(), b: pypto.Tensor(), out: pypto.Tensor(), config: Config):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = a + b


def test_add():
    a, b = torch.rand(16, 32), torch.rand(16, 32)
    out = torch.empty(16, 32)
    add_kernel(a, b, out, Config(relu=pypto.ReLuType.RELU))
    torch.testing.assert_close(out, a + b)
