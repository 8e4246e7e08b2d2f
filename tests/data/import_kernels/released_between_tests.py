"""Each test builds its own inputs and compares the kernel's output with a golden; a later test
finds the earlier tests' tensors freed, as they are when pytest runs the file (a file whose tests
each build caches of hundreds of MiB relies on it). A module tensor read by every test lives on."""
import gc
import weakref

import torch

import pypto

BIAS = torch.full((1, 32), 0.5)
_first_test_tensors = []


@pypto.frontend.jit
def biased_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    bias: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = pypto.add(x, bias)


def golden(x, bias):
    return x + bias


def test_first():
    x = torch.randn(16, 32)
    out = torch.empty(16, 32)
    expected = golden(x, BIAS)
    biased_kernel(x, BIAS, out)
    _first_test_tensors.extend(weakref.ref(t) for t in (x, out, expected))
    torch.testing.assert_close(out, expected)


def test_second():
    gc.collect()
    alive = sum(ref() is not None for ref in _first_test_tensors)
    assert alive == 0, f"{alive} tensor(s) of test_first still held"
    x = torch.randn(32, 32)
    out = torch.empty(32, 32)
    biased_kernel(x, BIAS, out)
    torch.testing.assert_close(out, golden(x, BIAS))
