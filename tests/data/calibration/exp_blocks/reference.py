import torch
from torch import Tensor


def exp_blocks_reference(x: Tensor) -> Tensor:
    return torch.exp(x - 1.0)
