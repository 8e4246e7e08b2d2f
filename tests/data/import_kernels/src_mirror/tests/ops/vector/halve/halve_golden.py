"""The golden of halve_impl.py, beside its test."""
import torch


def halve_golden(x: torch.Tensor) -> torch.Tensor:
    return x * 0.5
