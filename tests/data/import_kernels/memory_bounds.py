"""The kernel worker bounds the memory a file allocates, not what it maps: a test that allocates
three quarters of the machine's RAM fails at its line, while one that maps a file as large (as
torch maps its libraries) runs its kernel."""
import mmap
import os
import tempfile

import torch

import pypto

THREE_QUARTERS_OF_RAM = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") * 3 // 4


@pypto.frontend.jit
def doubled_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = pypto.mul(x, 2.0)


def test_allocation_over_the_limit():
    scratch = torch.empty(THREE_QUARTERS_OF_RAM, dtype=torch.uint8)
    x = torch.randn(16, 32)
    out = torch.empty(16, 32)
    doubled_kernel(x, out)
    torch.testing.assert_close(out, x * 2.0 + scratch[:1].float() * 0)


def test_large_mapping():
    with tempfile.TemporaryFile() as backing:
        backing.truncate(THREE_QUARTERS_OF_RAM)
        with mmap.mmap(backing.fileno(), THREE_QUARTERS_OF_RAM, access=mmap.ACCESS_READ) as mapped:
            x = torch.randn(16, 32) + mapped[0]
            out = torch.empty(16, 32)
            doubled_kernel(x, out)
            torch.testing.assert_close(out, x * 2.0)
