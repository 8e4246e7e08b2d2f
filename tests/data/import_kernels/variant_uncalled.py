"""Kernels of one signature; the test calls only the first. The second is a variant of it (other
tiles, the same result); the third computes something else. The fourth annotates its rows as
dynamic, so its calls are the first's; the fifth takes float16, which the first's calls are not."""
import pypto
import torch


@pypto.frontend.jit()
def halve_kernel(x: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 16)
    out[:] = x * 0.5


@pypto.frontend.jit()
def halve_kernel_wide(x: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = x * 0.5


@pypto.frontend.jit()
def quarter_kernel(x: pypto.Tensor([8, 16], pypto.DT_FP32), out: pypto.Tensor([8, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = x * 0.25


@pypto.frontend.jit()
def halve_kernel_any_rows(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)
):
    pypto.set_vec_tile_shapes(4, 16)
    out[:] = x * 0.5


@pypto.frontend.jit()
def halve_kernel_fp16(x: pypto.Tensor([8, 16], pypto.DT_FP16), out: pypto.Tensor([8, 16], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(4, 16)
    out[:] = x * 0.5


def test_halve():
    x = torch.randn(8, 16)
    out = torch.empty(8, 16)
    halve_kernel(x, out)
    torch.testing.assert_close(out, x * 0.5)
