"""Scale kernels for two devices: a factory builds one per case, and the tests of each device, in
folders of their own, import this module through the package."""
import numpy as np
import pytest
import torch

import pypto
from scale_ops.common import cosine


def make_scale_kernel(device, name, shape, dtype, tiles, factor):
    @pypto.frontend.jit(codegen_options={"device": device})
    def kernel(x: pypto.Tensor(shape, dtype), y: pypto.Tensor(shape, dtype)):
        pypto.set_vec_tile_shapes(*tiles)
        y[:] = pypto.mul(x, factor)

    kernel.__name__ = name
    return kernel


CASES = [
    pytest.param("scale_001", torch.float32, pypto.DT_FP32, (8, 32), (16, 32), marks=[], id="001"),
    pytest.param("scale_002", torch.float16, pypto.DT_FP16, (8, 16), (8, 48), marks=[pytest.mark.skip()], id="002"),
]


def run_scale_test(kernels, name, dtype, shape):
    x = torch.randn(shape, dtype=dtype)
    y = torch.empty_like(x)
    kernels[name](x, y)
    expected = x * 2.5
    similarity = cosine(np.array(y), np.array(expected))
    assert similarity > 0.9999, f"{name}: cosine {similarity}"


def make_kernels(device):
    return {p.values[0]: make_scale_kernel(device, p.values[0], [...], p.values[2], p.values[3], 2.5) for p in CASES}
