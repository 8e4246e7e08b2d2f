import torch
from torch import Tensor


def scale_add_reference(x: Tensor, acc: Tensor, scale: float) -> Tensor:
    acc.add_(x)
    return x * scale + 1.0
