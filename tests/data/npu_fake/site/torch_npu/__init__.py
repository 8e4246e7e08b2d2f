"""A stand-in for torch_npu on a machine without an NPU: a device that is always there, and
Tensor.npu() that marks the tensor as moved to it (its data stays on the CPU)."""
import types

import torch


def _npu(self):
    moved = self.clone()
    moved.fake_npu = True
    return moved


torch.Tensor.npu = _npu
torch.npu = types.SimpleNamespace(is_available=lambda: True)
