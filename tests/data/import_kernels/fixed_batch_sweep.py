"""A kernel annotated with a fixed batch of 1, which its test sweeps over batches of 1, 2 and 4 and
whose failures it catches, as a precision sweep does: PyPTO's jit rejects the larger batches before
the kernel runs, so those calls are no cases."""
import torch

import pypto


@pypto.frontend.jit
def double_kernel(x: pypto.Tensor((1, 8, 32), pypto.DT_FP32), y: pypto.Tensor((1, 8, 32), pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(1, 8, 32)
    y.move(pypto.mul(x, 2.0))


def double_golden(x):
    return x * 2.0


def test_batches():
    passed = []
    for batch in (1, 2, 4):
        x = torch.randn(batch, 8, 32)
        y = torch.empty_like(x)
        try:
            double_kernel(x, y)
        except Exception:  # noqa: BLE001 - a sweep notes the batch as failed and goes on
            passed.append(False)
            continue
        passed.append(bool(torch.allclose(y, double_golden(x))))
    assert passed[0]
