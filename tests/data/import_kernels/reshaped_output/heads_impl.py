"""A kernel that writes [tokens * heads, dim] rows, behind a wrapper that hands the caller the
output reshaped to [tokens, heads, dim], as deepseek_v4's attention wrappers do."""
import pypto
import torch


@pypto.frontend.jit
def scale_heads(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 16)
    out[:] = pypto.mul(x, 0.5)


def scaled_heads(x):
    out = torch.empty([x.shape[0] * x.shape[1], x.shape[2]], dtype=x.dtype)
    scale_heads(x.reshape(-1, x.shape[2]), out)
    out = out.reshape(x.shape)
    return out
