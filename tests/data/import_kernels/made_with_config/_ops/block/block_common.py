"""The block operator's config and helpers, which block_impl.py imports relatively. The config's
defaults include values op.json has no spelling for (a torch dtype, -inf)."""
from dataclasses import dataclass

import torch


@dataclass
class BlockConfig:
    rows: int = 8
    scale: float = 1.0
    low: float = float("-inf")
    dtype: torch.dtype = torch.float32


def tile_rows(cfg):
    return cfg.rows
