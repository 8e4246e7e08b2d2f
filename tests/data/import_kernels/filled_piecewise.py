"""A kernel whose second input the test makes with torch.empty and fills row by row, as a
backward test fills the statistics its forward pass would have saved."""
import torch

import pypto


@pypto.frontend.jit
def rescale_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    row_max: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.sub(x, row_max)


def test_rescale():
    x = torch.randn(8, 8)
    row_max = torch.empty(8, 8)
    for row in range(8):
        row_max[row, :] = x[row].max()
    out = torch.empty(8, 8)
    rescale_kernel(x, row_max, out)
    torch.testing.assert_close(out, x - row_max)
