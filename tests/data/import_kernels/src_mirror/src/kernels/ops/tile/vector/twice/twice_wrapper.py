"""The operator's entry: it puts its own folder on the path and imports the kernel file by name."""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from twice_impl import twice_kernel  # noqa: E402


def twice(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    twice_kernel(x, y)
    return y
