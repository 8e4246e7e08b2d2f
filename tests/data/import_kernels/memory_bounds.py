"""The kernel worker bounds what a file allocates, and its address space only beyond what the
worker had mapped when it started (Python, torch's libraries): an allocation of three quarters of
the RAM fails at its line, as does shared memory of that size, while a mapping that takes the
address space past half the RAM (an address-space limit of half the RAM refused it) is made, and
that test's kernel call is the case."""
import mmap
import os

import torch

import pypto

RAM = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
LIMIT = RAM // 2  # the worker's
MiB = 1 << 20


def mapped_now():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


@pypto.frontend.jit
def doubled_kernel(
    x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = pypto.mul(x, 2.0)


def run_doubled(rows):
    x = torch.randn(rows, 32)
    out = torch.empty(rows, 32)
    doubled_kernel(x, out)
    torch.testing.assert_close(out, x * 2.0)


def test_allocation_over_the_limit():
    scratch = torch.empty(LIMIT * 3 // 2, dtype=torch.uint8)
    del scratch
    run_doubled(16)


def test_shared_memory_over_the_limit():
    with mmap.mmap(-1, LIMIT * 3 // 2):
        run_doubled(32)


def test_mapping_past_half_the_ram():
    size = LIMIT - mapped_now() + 256 * MiB
    with mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ):
        run_doubled(48)
