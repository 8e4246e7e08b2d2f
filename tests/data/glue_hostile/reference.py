import torch
from torch import Tensor
from typing import List, Tuple


def odd_reference(x: Tensor, w: Tensor, flag: bool, n: int, alpha: float, mode: str, dims: List[int],
                  weights: List[float], std: int) -> Tuple[Tensor, Tensor]:
    y = x[:, :n] * alpha
    if not flag:
        y = y * 2.0
    if mode == "m":
        y = y + 1.0
    s = w[: len(dims) + std] * weights[0]
    return y, s
