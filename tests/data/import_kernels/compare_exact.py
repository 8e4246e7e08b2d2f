"""Kernels as PyPTO's kirin tests check them: the torch op comes from a table, the output starts
as torch.zeros (and for less_kernel stays all False), integers are widened on both sides before
the exact comparison."""
import numpy as np
import torch

import pypto

OPS = {"lt": (pypto.lt, torch.lt), "eq": (pypto.eq, torch.eq)}


@pypto.frontend.jit
def less_kernel(
    a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_BOOL),
):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.lt(a, b)


def test_less():
    torch_op = OPS["lt"][1]
    a = torch.rand(16, 32) + 2.0
    b = torch.rand(16, 32)
    out = torch.zeros(16, 32, dtype=torch.bool)
    less_kernel(a, b, out)
    expect = torch_op(a, b)
    np.testing.assert_array_equal(np.array(out), np.array(expect))


@pypto.frontend.jit
def max_kernel(
    a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_INT16),
    b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_INT16),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_INT16),
):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.maximum(a, b)


def test_max():
    widen = True
    a = torch.randint(0, 100, (16, 32), dtype=torch.int16)
    b = torch.randint(0, 100, (16, 32), dtype=torch.int16)
    out = torch.zeros(16, 32, dtype=torch.int16)
    max_kernel(a, b, out)
    expect = torch.maximum(a, b)
    out_np = np.array(out.to(torch.int32) if widen else out)
    expect_np = np.array(expect.to(torch.int32) if widen else expect)
    np.testing.assert_array_equal(out_np, expect_np)


@pypto.frontend.jit
def nan_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_BOOL),
):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.isnan(x)


def test_nan():
    x = torch.rand(16, 32)
    x[3, ::4] = torch.nan
    out = torch.zeros(16, 32, dtype=torch.bool)
    nan_kernel(x, out)
    # torch.equal: exact, against a copy of the output.
    assert torch.equal(torch.isnan(x.float()), out.cpu())
