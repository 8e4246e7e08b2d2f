import torch
from torch import Tensor


def relu_scale_reference(x: Tensor) -> Tensor:
    return torch.relu(x) * 2.0
