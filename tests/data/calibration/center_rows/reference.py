import torch
from torch import Tensor


def center_rows_reference(x: Tensor) -> Tensor:
    return x - x.mean(dim=-1, keepdim=True)
