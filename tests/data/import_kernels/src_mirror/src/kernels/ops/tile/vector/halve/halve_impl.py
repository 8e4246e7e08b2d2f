"""A kernel of a package kept in src/, whose tests mirror the source tree in the repository's
tests/ folder (tests/ops/vector/halve/), without the tile/ level."""
import pypto
import torch


@pypto.frontend.jit
def halve_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y.move(pypto.mul(x, 0.5))


def halve(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    halve_kernel(x, y)
    return y
