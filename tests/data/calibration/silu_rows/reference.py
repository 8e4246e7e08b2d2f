import torch
from torch import Tensor


def silu_rows_reference(x: Tensor) -> Tensor:
    return x * torch.sigmoid(x)
