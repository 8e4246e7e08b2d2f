"""A wrapper runs the kernel on a [rows, cols] view of its [batch, rows, cols] input and returns
the output reshaped back; the test compares NumPy arrays of the result (`actual.numpy()`), which
share the output's memory in another shape."""
import numpy as np
import torch

import pypto


@pypto.frontend.jit
def halve_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 32)
    y.move(pypto.mul(x, 0.5))


def halve(x):
    x_2d = x.reshape(-1, x.shape[-1])
    y_2d = torch.zeros(x_2d.shape, dtype=x.dtype)
    halve_kernel(x_2d, y_2d)
    return y_2d.reshape(x.shape)


def test_halve():
    x = torch.randn(2, 16, 32)
    actual = halve(x)
    np.testing.assert_allclose(actual.numpy(), (x * 0.5).numpy(), rtol=1e-4, atol=1e-5)
