"""Two kernels read the same input tensor, and the expected value reads module constants."""
import torch
from numpy.testing import assert_allclose

import pypto

ROWS, COLS = 16, 32


@pypto.frontend.jit
def first_half_kernel(
    b: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32), c: pypto.Tensor([8, 32], pypto.DT_FP32)
):
    pypto.set_vec_tile_shapes(8, 32)
    c.move(pypto.add(b[0:8, :], 1.0))


@pypto.frontend.jit
def second_half_kernel(
    b: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32), c: pypto.Tensor([8, 32], pypto.DT_FP32)
):
    pypto.set_vec_tile_shapes(8, 32)
    c.move(pypto.add(b[8:16, :], 2.0))


def test_halves():
    b = torch.rand((ROWS, COLS), dtype=torch.float32)
    expected_first = b[: ROWS // 2] + 1.0
    expected_second = b[ROWS // 2 :] + 2.0
    first = torch.zeros((ROWS // 2, COLS), dtype=torch.float32)
    second = torch.zeros((ROWS // 2, COLS), dtype=torch.float32)
    first_half_kernel(b, first)
    second_half_kernel(b, second)
    assert_allclose(first.numpy(), expected_first.numpy(), rtol=1e-3, atol=1e-3)
    assert_allclose(second.numpy(), expected_second.numpy(), rtol=1e-3, atol=1e-3)
