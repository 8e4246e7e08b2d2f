"""The expected value over a list of the kernel's inputs and a scalar the kernel also takes under
another name (the test's `scale` is the kernel's `factor`)."""
import torch

import pypto


@pypto.frontend.jit
def concat_scale_kernel(
    a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    factor: float,
):
    pypto.set_vec_tile_shapes(8, 32)
    out.move(pypto.mul(pypto.concat([a, b], 0), factor))


def test_concat_scale():
    inputs = [torch.randn(8, 32), torch.randn(16, 32)]
    scale = 1.5
    out = torch.empty(24, 32)
    concat_scale_kernel(*inputs, out, scale)
    golden = torch.cat(inputs, dim=0) * scale
    torch.testing.assert_close(out, golden)
