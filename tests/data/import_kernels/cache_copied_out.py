"""A kernel that scatters each tile's rows into its cache input, in place, and copies the whole
cache out after each tile, as deepseek_v32's mla_prolog does; the test's output starts as a copy
of the cache."""
import torch

import pypto


@pypto.frontend.jit
def cache_update_kernel(
    rows: pypto.Tensor([4, 8], pypto.DT_FP32),
    index: pypto.Tensor([4, 1], pypto.DT_INT32),
    cache: pypto.Tensor([16, 8], pypto.DT_FP32),
    cache_out: pypto.Tensor([16, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(2, 8)
    for tile in pypto.loop(0, 2, 1, name="TILES", idx_name="tile"):
        slots = pypto.view(index, [2, 1], [tile * 2, 0])
        values = pypto.view(rows, [2, 8], [tile * 2, 0])
        cache_out[:] = pypto.scatter_update(cache, -2, slots, values)


def test_cache_update():
    rows = torch.randn(4, 8)
    index = torch.tensor([[3], [0], [9], [12]], dtype=torch.int32)
    cache = torch.randn(16, 8)
    cache_out = cache.clone()
    expected = cache.clone()
    expected[index.flatten().long()] = rows
    cache_update_kernel(rows, index, cache, cache_out)
    torch.testing.assert_close(cache_out, expected)
