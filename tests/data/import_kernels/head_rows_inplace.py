"""x + y, and val added to the first two rows: the test builds its expected value in two steps,
the second changing it in place, as PyPTO's condition example does. No one expression is that
value, so import must not propose `x + y` as the reference."""
import numpy as np
import torch

import pypto


@pypto.frontend.jit()
def add_head_kernel(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
                    y: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
                    out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32), val: int):
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(x.shape[0]):
        row = x[i:i + 1, :] + y[i:i + 1, :]
        if i < 2:
            out[i:i + 1, :] = row + val
        else:
            out[i:i + 1, :] = row


def test_add_head():
    x = torch.rand(8, 64)
    y = torch.rand(8, 64)
    out = torch.empty(8, 64)
    add_head_kernel(x, y, out, 1)
    expected = torch.add(x, y)
    expected[0:2, ...] = expected[0:2, ...] + 1
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=3e-3, atol=3e-3)
