"""Layer norm over rows, configured the way real kernels are: a dataclass config object (with a
dict keyed by ints, as PyPTO's buffer settings are), a plain int the kernel needs and nested
lists (an affine map, given as is), none of them an op parameter. op.json builds them per
case."""
from dataclasses import dataclass, field

import pypto


@dataclass
class NormConfig:
    eps: float = 1e-5
    dtype: pypto.DataType = pypto.DT_FP32
    tile_rows: int = 2
    buffers: dict = field(default_factory=dict)


def _normalize(row, cols, eps):
    mean = pypto.sum(row, -1, keepdim=True) / cols
    centered = row - mean
    var = pypto.sum(centered * centered, -1, keepdim=True) / cols
    return centered * pypto.rsqrt(var + eps)


@pypto.frontend.jit
def layer_norm_kernel(x: pypto.Tensor(), gamma: pypto.Tensor(), y: pypto.Tensor(),
                      NUM_COLS: int, config: NormConfig, AFFINE: list):
    assert config.dtype == x.dtype, f"config.dtype {config.dtype} does not match x {x.dtype}"
    assert all(isinstance(depth, int) for depth in config.buffers), f"buffers keyed by {list(config.buffers)}"
    (scale, shift), = AFFINE
    tile = config.tile_rows
    pypto.set_vec_tile_shapes(tile, NUM_COLS)
    rows = x.shape[0]
    for t in pypto.loop(pypto.ceildiv(rows, tile)):
        take = pypto.min(tile, rows - t * tile)
        block = pypto.view(x, [tile, NUM_COLS], [t * tile, 0], valid_shape=[take, NUM_COLS])
        y[t * tile:, :] = _normalize(block, NUM_COLS, config.eps) * gamma * scale + shift
