"""The test of _ops/block/block_impl.py, which it imports through the folder it puts on its path."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _ops.block.block_common import BlockConfig  # noqa: E402
from _ops.block.block_impl import scale_blocks  # noqa: E402


def test_block():
    x = torch.randn(8, 32)
    torch.testing.assert_close(scale_blocks(x, BlockConfig(rows=4, scale=3.0)), x * 3.0)
