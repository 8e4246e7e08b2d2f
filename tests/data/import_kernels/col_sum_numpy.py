"""Sums of rows, [rows, 1] with keepdim, checked against a NumPy golden: the reference is left to
write (NumPy is outside the reference subset)."""
import numpy as np
import torch

import pypto


def col_sum_golden(x):
    return torch.from_numpy(np.sum(x.numpy(), axis=-1, keepdims=True))


@pypto.frontend.jit
def row_sum_kernel(x: pypto.Tensor(), out: pypto.Tensor()):
    pypto.set_vec_tile_shapes(4, x.shape[1])
    pypto.assemble(pypto.sum(x, dim=-1, keepdim=True), [0, 0], out)


if __name__ == "__main__":
    for rows, cols in ((8, 64), (4, 32)):
        x = torch.arange(rows * cols, dtype=torch.float32).reshape(rows, cols) / 100
        out = torch.empty(rows, 1)
        row_sum_kernel(x, out)
        np.testing.assert_allclose(out.numpy(), col_sum_golden(x).numpy(), rtol=1e-5, atol=1e-4)
