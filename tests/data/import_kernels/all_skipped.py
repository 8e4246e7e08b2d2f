"""A kernel whose one test has every case marked skip, as some of PyPTO's kirin files have them:
nothing else calls the kernel, so import runs the skipped cases."""
import pytest
import torch

import pypto


@pypto.frontend.jit
def negate_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 16)
    y[:] = pypto.neg(x)


@pytest.mark.parametrize(
    "rows", [pytest.param(8, marks=[pytest.mark.skip()]), pytest.param(24, marks=[pytest.mark.skip()])]
)
def test_negate(rows):
    x = torch.randn(rows, 16)
    y = torch.zeros(rows, 16)
    negate_kernel(x, y)
    torch.testing.assert_close(y, -x)
