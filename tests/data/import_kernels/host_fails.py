"""The kernel is fine; the host code fails before it calls it."""
import torch

import pypto


@pypto.frontend.jit
def neg_kernel(x: pypto.Tensor(), y: pypto.Tensor(), offset: float):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.add(pypto.neg(x), offset)


if __name__ == "__main__":
    x = torch.randn(8, 32)
    raise RuntimeError("the test data is missing")
