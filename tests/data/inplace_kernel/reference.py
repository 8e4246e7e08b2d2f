from torch import Tensor


def add_into_reference(x: Tensor, acc: Tensor, scale: float) -> None:
    acc.add_(x * scale)
