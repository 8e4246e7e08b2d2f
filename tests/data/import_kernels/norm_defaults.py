"""A golden whose keyword arguments have defaults (gamma=None, eps=1e-6) and a test that passes
gamma and leaves eps out; the kernel's output is compared after a cast to float32."""
import torch

import pypto


@pypto.frontend.jit
def rms_scale_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    gamma: pypto.Tensor([32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.mul(x, gamma)


def rms_scale_golden(x, gamma=None, eps=1e-6, scale=1.0):
    if gamma is not None:
        x = x * gamma
    return x * scale + eps * 0.0


def test_rms_scale():
    x = torch.randn(16, 32)
    gamma = torch.randn(32)
    out = torch.empty(16, 32)
    rms_scale_kernel(x, gamma, out)
    expected = rms_scale_golden(x, gamma)
    assert torch.allclose(out, expected, rtol=1e-5, atol=1e-5)
