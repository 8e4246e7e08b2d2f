"""A dataclass config, a plain helper and a @frontend.function helper, called from the kernel."""
from dataclasses import dataclass

import pypto


@dataclass
class Config:
    eps: float = 1e-6
    tile: tuple = (1, 64)


CONFIG = Config()


def rsqrt_mean(squares, n):
    return pypto.rsqrt(pypto.sum(squares, -1, keepdim=True) / n + CONFIG.eps)


@pypto.frontend.function
def normalize(x):
    return x * rsqrt_mean(x * x, x.shape[-1])


@pypto.jit
def kernel(x: pypto.Tensor[...], w: pypto.Tensor[...], y: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(*CONFIG.tile)
    rows, cols = x.shape
    for i in pypto.loop(rows):
        y[i:i + 1, :] = normalize(pypto.view(x, [1, cols], [i, 0])) * w
