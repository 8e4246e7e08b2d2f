"""Kernels checked against literal values, as PyPTO's matmul and transform examples are. Neither the
kernels' names nor their bodies spell the whole computation (a bias added, an operand used
transposed, arguments in another order than torch's, a cast); the literal values decide."""
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def matmul_bias_kernel(
    a: pypto.Tensor([], pypto.DT_FP32),
    b: pypto.Tensor([], pypto.DT_FP32),
    bias: pypto.Tensor([], pypto.DT_FP32),
    out: pypto.Tensor([], pypto.DT_FP32),
):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    pypto.set_vec_tile_shapes(16, 16)
    out[:] = pypto.add(pypto.matmul(a, b, a.dtype), bias)


@pypto.frontend.jit
def product_with_right_transposed(
    a: pypto.Tensor([], pypto.DT_FP32), b: pypto.Tensor([], pypto.DT_FP32), out: pypto.Tensor([], pypto.DT_FP32)
):
    pypto.set_cube_tile_shapes([16, 16], [16, 16], [16, 16])
    out[:] = pypto.matmul(a, b, a.dtype, b_trans=True)


@pypto.frontend.jit
def pick_kernel(
    source: pypto.Tensor([], pypto.DT_FP32),
    index: pypto.Tensor([], pypto.DT_INT64),
    out: pypto.Tensor([], pypto.DT_FP32),
    dim: int,
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.gather(source, dim, index)


def test_bias():
    a = torch.tensor([[1, 2], [3, 4]], dtype=torch.float32)
    b = torch.tensor([[5, 6], [7, 8]], dtype=torch.float32)
    bias = torch.tensor([[1, 2]], dtype=torch.float32)
    expected = torch.tensor([[20, 24], [44, 52]], dtype=torch.float32)
    out = torch.empty((2, 2), dtype=torch.float32)
    matmul_bias_kernel(a, b, bias, out)
    assert_allclose(out.numpy(), expected.numpy(), rtol=1e-4, atol=1e-4)


def test_right_transposed():
    a = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float32)
    b = torch.tensor([[1, 0, 1], [0, 1, 0]], dtype=torch.float32)
    expected = torch.tensor([[4, 2], [10, 5]], dtype=torch.float32)
    out = torch.empty((2, 2), dtype=torch.float32)
    product_with_right_transposed(a, b, out)
    assert_allclose(out.numpy(), expected.numpy(), rtol=1e-4, atol=1e-4)


def test_pick():
    source = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float32)
    index = torch.tensor([[2, 0], [1, 1]], dtype=torch.int64)
    expected = torch.tensor([[3, 1], [5, 5]], dtype=torch.float32)
    out = torch.empty((2, 2), dtype=torch.float32)
    pick_kernel(source, index, out, 1)
    assert_allclose(out.numpy(), expected.numpy(), rtol=0, atol=0)


@pypto.frontend.jit
def convert_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(8)
    y[:] = pypto.cast(x, pypto.DT_FP16)


def test_convert():
    x = torch.tensor([2.0, 3.0, -0.5, 8.0], dtype=torch.float32)
    y = torch.empty(x.shape, dtype=torch.float16)
    convert_kernel(x, y)
    expected = torch.tensor([2.0, 3.0, -0.5, 8.0], dtype=torch.float16)
    assert_allclose(y.numpy(), expected.numpy(), rtol=1e-3, atol=1e-3)
