"""In the style of PyPTO's model files: the output buffer is filled with random values first, the
kernel runs inside an NPU graph capture (a `with` block, or capture_begin/capture_end), and the
test compares flattened lists of the values."""
import numpy as np
import torch
from numpy.testing import assert_allclose

import pypto


@pypto.frontend.jit
def project(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    weight: pypto.Tensor([16, 32], pypto.DT_FP32),
    logits: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
):
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    logits[:] = pypto.matmul(x, weight, pypto.DT_FP32, b_trans=True)


@pypto.frontend.jit
def accumulate(
    x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32), total: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)
):
    pypto.set_vec_tile_shapes(8, 16)
    total[:] = pypto.add(total, x)


def test_project():
    x = torch.rand((24, 32), dtype=torch.float32, device="npu:0")
    weight = torch.rand((16, 32), dtype=torch.float32, device="npu:0")
    logits = torch.rand((24, 16), dtype=torch.float32, device="npu:0")
    g = torch.npu.NPUGraph()
    with torch.npu.graph(g):
        project(x, weight, logits)
        assert torch.npu.is_current_stream_capturing()
    assert not torch.npu.is_current_stream_capturing()
    g.replay()
    result = torch.matmul(x, weight.t())
    result_list = result.cpu().flatten().tolist()
    assert_allclose(np.array(logits.cpu().flatten().tolist()), np.array(result_list), rtol=5e-3, atol=5e-3)


def test_accumulate():
    x = torch.rand((8, 16), dtype=torch.float32)
    total = torch.rand((8, 16), dtype=torch.float32)
    expected = total + x
    # Captured by hand, as test_aclgraph_new_front.py does.
    g = torch.npu.NPUGraph()
    g.capture_begin()
    accumulate(x, total)
    assert torch.npu.is_current_stream_capturing()
    g.capture_end()
    g.replay()
    assert_allclose(total.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)
