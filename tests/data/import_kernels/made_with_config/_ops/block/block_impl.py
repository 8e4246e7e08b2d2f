"""A kernel made by a factory that takes a dataclass config and caches what it makes, called by a
wrapper; the test in test_block.py, two folders up, calls the wrapper. The kernel file names the
config's module only relatively (`from .block_common import tile_rows`), and binds no name for the
class: kernel.made_with names it from the kernel's package, with the fields the test changed."""
import torch

import pypto

from .block_common import tile_rows

_made = {}


def get_kernel(cfg, *, cols=None):
    key = (cfg.rows, cfg.scale, cols)
    if key in _made:
        return _made[key]
    assert cfg.low == float("-inf") and cfg.dtype is torch.float32

    @pypto.frontend.jit
    def block_kernel(x: pypto.Tensor([...], pypto.DT_FP32), y: pypto.Tensor([...], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(tile_rows(cfg), cols)
        y[:] = pypto.mul(x, cfg.scale)

    _made[key] = (block_kernel, "made")
    return _made[key]


def scale_blocks(x, cfg):
    kernel, _ = get_kernel(cfg, cols=x.shape[1])
    y = torch.empty_like(x)
    kernel(x, y)
    return y
