"""A kernel that adds 1 to its input twice in place, keeps a doubled copy in a scratch output and
writes their sum; its test checks only the sum, against a value built in steps (no one expression
import could propose as the reference), as PyPTO's liveness and hidden-loop tests do."""
import torch

import pypto


@pypto.frontend.jit()
def accumulate_kernel(a: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
                      result: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
                      scratch: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 32)
    for _ in range(2):
        a[:] = a + 1
    scratch[:] = a * 2
    result[:] = a + scratch


def test_accumulate():
    torch.manual_seed(0)
    x = torch.rand(16, 32)
    expected = x.clone()
    expected += 2
    expected[:] = expected * 3
    result = torch.zeros(16, 32)
    scratch = torch.zeros(16, 32)
    accumulate_kernel(x.clone(), result, scratch)
    assert torch.allclose(result, expected, rtol=1e-5, atol=1e-5)
