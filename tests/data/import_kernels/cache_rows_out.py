"""Rows of x written into a cache at the given rows, and x doubled. The test passes the cache as a
clone of its old contents, named like an output (`cache_out`); the rows the kernel does not write
keep what they held, so it is an input the kernel updates, not an output."""
import torch

import pypto


@pypto.frontend.jit()
def cache_rows_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32),
                      rows: pypto.Tensor([4], pypto.DT_INT32),
                      doubled: pypto.Tensor([4, 8], pypto.DT_FP32),
                      cache_out: pypto.Tensor([16, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 8)
    doubled[:] = x * 2
    pypto.index_put_(cache_out, (rows,), x)


def test_cache_rows():
    x = torch.randn(4, 8)
    rows = torch.tensor([3, 0, 9, 12], dtype=torch.int32)
    cache = torch.randn(16, 8)
    doubled = torch.empty(4, 8)
    cache_out = cache.clone()
    cache_rows_kernel(x, rows, doubled, cache_out)
    expected = cache.clone()
    expected[rows.long()] = x
    torch.testing.assert_close(cache_out, expected)
    torch.testing.assert_close(doubled, x * 2)
