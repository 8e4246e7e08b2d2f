"""One kernel, a config that chooses its activation: the tests run it in two configurations, as
PyPTO's FFN example does. A case runs the kernel with one config, so the calls in the other are
no cases of the op the first call describes. A tile size chosen per case (16 rows for 32, 8 for
the others) that no rule over the shapes gives is another configuration too."""
from dataclasses import dataclass

import pytest
import torch

import pypto


@dataclass
class ActivationConfig:
    activation: str = "identity"
    tile_rows: int = 8


@pypto.frontend.jit
def activation_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    config: ActivationConfig,
):
    pypto.set_vec_tile_shapes(config.tile_rows, 32)
    if config.activation == "relu":
        out[:] = pypto.maximum(x, 0.0)
    else:
        out[:] = pypto.mul(x, 2.0)


def relu_golden(x):
    return torch.clamp(x, min=0.0)


@pytest.mark.parametrize("rows", [16, 24])
def test_relu(rows):
    x = torch.randn(rows, 32)
    out = torch.empty(rows, 32)
    activation_kernel(x, out, ActivationConfig(activation="relu", tile_rows=8))
    torch.testing.assert_close(out, relu_golden(x))


def test_double():
    x = torch.randn(16, 32)
    out = torch.empty(16, 32)
    activation_kernel(x, out, ActivationConfig(activation="double", tile_rows=8))
    torch.testing.assert_close(out, x * 2.0)


def test_relu_wide_tiles():
    x = torch.randn(32, 32)
    out = torch.empty(32, 32)
    activation_kernel(x, out, ActivationConfig(activation="relu", tile_rows=16))
    torch.testing.assert_close(out, relu_golden(x))
