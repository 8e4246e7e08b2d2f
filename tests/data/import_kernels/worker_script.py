"""A worker script, as PyPTO's bundle cases are: no test, and a main block that runs what its
command line names; the function that builds the kernel in a factory, calls and checks it needs no
argument, and neither the main block (with no command line) nor a test runs it."""
import sys

import torch

import pypto


def _make_scale_kernel():
    @pypto.frontend.jit()
    def scale_kernel(x: pypto.Tensor([...], pypto.DT_FP32), out: pypto.Tensor([...], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(4, 64)
        out[:] = x * 3.0

    return scale_kernel


def pack_scale():
    x = torch.rand(4, 64)
    out = torch.zeros(4, 64)
    _make_scale_kernel()(x, out)
    assert torch.allclose(out, x * 3.0, rtol=1e-6, atol=1e-6)


def consume_scale(bundle_path):
    raise SystemExit(f"nothing to consume in {bundle_path}")


if __name__ == "__main__":
    {"pack": pack_scale}[sys.argv[1]]()
