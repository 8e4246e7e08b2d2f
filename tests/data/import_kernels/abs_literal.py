"""|x| checked against literal values, as PyPTO's elementwise examples are: the kernel's name says
which torch function gives them."""
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def abs_kernel(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8)
    out[:] = pypto.abs(x)


def test_abs():
    x = torch.tensor([-1, -8, 2, 0.5, -3, 4, -0.25, 7], dtype=torch.float32)
    expected = torch.tensor([1, 8, 2, 0.5, 3, 4, 0.25, 7], dtype=torch.float32)
    out = torch.empty(x.shape, dtype=torch.float32)
    abs_kernel(x, out)
    assert_allclose(out.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)
