"""y = x * 2 + bias, where the test computes what it expects inline (no golden function) and
compares through NumPy, as many PyPTO examples do."""
import numpy as np
import torch
from numpy.testing import assert_allclose

import pypto

SHAPE = (8, 64)


@pypto.frontend.jit
def scale_shift_kernel(x: pypto.Tensor(), bias: pypto.Tensor(), y: pypto.Tensor()):
    pypto.set_vec_tile_shapes(8, 64)
    y[:] = pypto.add(pypto.mul(x, 2.0), bias)


def test_scale_shift(device="cpu"):
    x = torch.rand(SHAPE, dtype=torch.float32, device=device)
    bias = torch.rand(SHAPE[1], dtype=torch.float32, device=device)
    factor = 2.0
    scaled = x * factor
    golden = scaled + bias
    golden = golden.cpu()
    y = torch.empty(SHAPE, dtype=torch.float32, device=device)
    scale_shift_kernel(x, bias, y)
    assert_allclose(np.array(y.cpu()), golden.numpy(), rtol=1e-6, atol=1e-6)


if __name__ == "__main__":
    test_scale_shift()
