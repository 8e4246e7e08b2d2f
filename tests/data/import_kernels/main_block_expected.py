"""The check is in the file's main block, at module level, not in a test function."""
import numpy as np
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def add_half_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32), y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)
):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.add(x, 0.5)


if __name__ == "__main__":
    constant = 0.5
    x = torch.rand(16, 32)
    y = torch.zeros(16, 32)
    add_half_kernel(x, y)
    golden = x + constant
    assert_allclose(np.array(y), np.array(golden), rtol=1e-3, atol=1e-3)
