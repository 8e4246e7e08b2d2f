"""A kernel whose config holds nested tuples of tile shapes, as the configs of PyPTO's matmul
tests do, and a dict keyed by ints (as deepseek's cube_l1_reuse_setting), and which takes a
parameter of nested lists."""
from dataclasses import dataclass

import torch

import pypto


@dataclass
class TileConfig:
    tile_shapes: tuple = ((8, 8),)
    scale: float = 1.0
    reuse: dict = None


@pypto.frontend.jit
def scaled_add_kernel(a: pypto.Tensor(), b: pypto.Tensor(), out: pypto.Tensor(), config: TileConfig, offsets: list):
    pypto.set_vec_tile_shapes(*config.tile_shapes[-1])
    per_tile = config.reuse.get(2, 1) / 4  # 1 with {2: 4}
    pypto.assemble((a + b) * (config.scale * per_tile) + offsets[0][1], [0, 0], out)


def test_scaled_add():
    a = torch.randn(16, 32)
    b = torch.randn(16, 32)
    out = torch.empty(16, 32)
    config = TileConfig(tile_shapes=((4, 16), (8, 32)), scale=0.5, reuse={2: 4, 3: {}})
    scaled_add_kernel(a, b, out, config, [[0, 1.5]])
    torch.testing.assert_close(out, (a + b) * 0.5 + 1.5, rtol=1e-5, atol=1e-5)


if __name__ == "__main__":
    test_scaled_add()
