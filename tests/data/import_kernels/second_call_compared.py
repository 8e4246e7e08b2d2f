"""A network that calls the kernel twice with the same shapes, the first call's output feeding
the second, and a test that compares only the second call's output, with a golden computed from
the network's inputs, as PyPTO's aclgraph test does."""
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit()
def add_kernel(
    a: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_INT32),
    b: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_INT32),
    c: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_INT32),
):
    pypto.set_vec_tile_shapes(32, 32)
    c.move(pypto.add(a, b))


def network(x, y):
    first = torch.zeros(x.shape, dtype=torch.int32)
    add_kernel(x + y, y, first)
    second = torch.zeros(x.shape, dtype=torch.int32)
    add_kernel(first - y, x, second)
    return second


def test_network():
    torch.manual_seed(3)
    x = torch.randint(-5, 5, (64, 64), dtype=torch.int32)
    y = torch.randint(-5, 5, (64, 64), dtype=torch.int32)
    golden = 2 * x + y
    assert_allclose(network(x, y).numpy(), golden.numpy(), rtol=5e-3, atol=5e-3)
