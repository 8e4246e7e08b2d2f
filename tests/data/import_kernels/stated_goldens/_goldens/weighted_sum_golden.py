"""The golden of weighted_sum, in a module of its own, checking its inputs as such modules do."""
import torch


def weighted_sum_golden(x: torch.Tensor, y: torch.Tensor, weight: float) -> torch.Tensor:
    assert x.shape == y.shape == (x.shape[0], 16), f"shape mismatch: x={tuple(x.shape)} y={tuple(y.shape)}"
    assert x.dtype == torch.float32, f"x must be float32, got {x.dtype}"
    return x * weight + y
