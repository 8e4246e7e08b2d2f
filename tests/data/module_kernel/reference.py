from torch import Tensor


def scale_reference(x: Tensor) -> Tensor:
    return x * 2.5
