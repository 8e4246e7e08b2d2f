"""A kernel built inside a helper that the main block calls twice, each time for one fixed shape:
kernel.made_by gives the first kernel again, so the project keeps that kernel's calls only."""
import torch

import pypto


def run_scaled(rows):
    @pypto.frontend.jit
    def scale_rows(
        x: pypto.Tensor([rows, 16], pypto.DT_FP32),
        y: pypto.Tensor([rows, 16], pypto.DT_FP32),
    ):
        pypto.set_vec_tile_shapes(8, 16)
        y[:] = pypto.mul(x, 3.0)

    x = torch.randn(rows, 16)
    y = torch.zeros(rows, 16)
    scale_rows(x, y)
    assert torch.allclose(y, x * 3.0)


if __name__ == "__main__":
    run_scaled(8)
    run_scaled(24)
