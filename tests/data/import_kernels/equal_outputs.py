"""Two kernels whose outputs hold the same values, each test comparing a NumPy view of its own
output with a literal: each comparison belongs to the kernel whose output it reads."""
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def twice_kernel(x: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8)
    out[:] = pypto.mul(x, 2.0)


@pypto.frontend.jit
def add_kernel(a: pypto.Tensor([], pypto.DT_FP32), b: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8)
    out[:] = pypto.add(a, b)


def test_twice():
    x = torch.tensor([1, 2, 3, 4], dtype=torch.float32)
    out = torch.empty(x.shape, dtype=torch.float32)
    twice_kernel(x, out)
    assert_allclose(out.numpy(), torch.tensor([2, 4, 6, 8], dtype=torch.float32).numpy(), rtol=1e-6, atol=1e-6)


def test_add():
    a = torch.tensor([1, 1, 1, 1], dtype=torch.float32)
    b = torch.tensor([1, 3, 5, 7], dtype=torch.float32)
    out = torch.empty(a.shape, dtype=torch.float32)
    add_kernel(a, b, out)
    assert_allclose(out.cpu().numpy(), torch.tensor([2, 4, 6, 8], dtype=torch.float32).numpy(), rtol=1e-6, atol=1e-6)
