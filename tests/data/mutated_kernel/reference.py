import torch
from torch import Tensor


def accumulate_reference(x: Tensor, acc: Tensor, scale: float) -> Tensor:
    scaled = x * scale
    acc.add_(scaled)
    return scaled
