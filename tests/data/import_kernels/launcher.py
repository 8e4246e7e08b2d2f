"""A launcher function wraps the kernel (it makes the output and calls the kernel): its result is
the output, but it is no golden; the test's expected value is."""
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def softmax_kernel(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = pypto.softmax(x, -1)


def softmax(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=x.dtype)
    softmax_kernel(x, out)
    return out


def test_softmax():
    x = torch.rand(16, 64)
    y = softmax(x)
    golden = torch.softmax(x, dim=-1)
    assert_allclose(y.numpy(), golden.numpy(), rtol=1e-5, atol=1e-6)
