import torch
from torch import Tensor


def add_rows_reference(x: Tensor, z: Tensor) -> Tensor:
    return x + z
