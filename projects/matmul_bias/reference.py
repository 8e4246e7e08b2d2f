import torch
from torch import Tensor


def matmul_bias_reference(a: Tensor, b: Tensor, bias: Tensor, trans_b: bool) -> Tensor:
    rhs = b.t() if trans_b else b
    return torch.matmul(a.to(torch.float32), rhs.to(torch.float32)) + bias
