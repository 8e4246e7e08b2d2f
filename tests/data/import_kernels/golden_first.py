"""The expected value is computed before the kernel runs, by a helper that returns both: the
golden function is called with tensors that become the kernel's inputs only afterwards."""
import torch
from numpy.testing import assert_allclose

import pypto


def _golden_scaled_rows(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x * w.reshape(1, -1) + 1.0


@pypto.frontend.jit
def scaled_rows(
    x: pypto.Tensor([pypto.DYNAMIC, pypto.STATIC], pypto.DT_FP32),
    w: pypto.Tensor([pypto.STATIC], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, pypto.STATIC], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.add(pypto.mul(x, pypto.reshape(w, [1, 16])), 1.0)


def _run_case(rows):
    x = torch.randn(rows, 16, dtype=torch.float32)
    w = torch.randn(16, dtype=torch.float32)
    ref = _golden_scaled_rows(x, w)
    out = torch.zeros(rows, 16, dtype=torch.float32)
    scaled_rows(x, w, out)
    return out, ref


def test_scaled_rows():
    for rows in (8, 24):
        out, ref = _run_case(rows)
        assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-5)
