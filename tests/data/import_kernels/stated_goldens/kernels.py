"""Expected values stated with pypto.set_verify_golden_data, one slot per tensor argument of the
next kernel call: from a golden module in a subfolder, and as an expression of the test."""
import torch

import pypto
from _goldens.weighted_sum_golden import weighted_sum_golden


@pypto.frontend.jit
def weighted_sum(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    y: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    weight: float,
):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.add(pypto.mul(x, weight), y)


@pypto.frontend.jit(verify_options={"pass_verify_error_tol": [0.01, 0.002]})
def doubled(x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.mul(x, 2.0)


def test_weighted_sum():
    x = torch.randn(24, 16)
    y = torch.randn(24, 16)
    out = torch.empty(24, 16)
    golden = weighted_sum_golden(x, y, 0.5)
    pypto.set_verify_golden_data(goldens=[None, None, golden])
    weighted_sum(x, y, out, 0.5)


def test_doubled():
    x = torch.randn(8, 16)
    out = torch.zeros(8, 16)
    pypto.set_verify_golden_data(goldens=[None, x * 2.0])
    doubled(x, out)
