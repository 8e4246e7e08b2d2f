"""A kernel whose first test is quick and whose second never ends: import stops the second when its
time is up, keeps what the first recorded and leaves the third out."""
import time

import torch

import pypto


@pypto.frontend.jit
def double(
    x: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
    out: pypto.Tensor([pypto.DYNAMIC, 8], pypto.DT_FP32),
):
    pypto.set_vec_tile_shapes(8, 8)
    out[:] = pypto.mul(x, 2.0)


def test_quick():
    x = torch.randn(8, 8)
    out = torch.zeros(8, 8)
    double(x, out)
    torch.testing.assert_close(out, x * 2.0)


def test_endless():
    x = torch.randn(16, 8)
    out = torch.zeros(16, 8)
    while True:
        try:
            time.sleep(0.05)
        except Exception:  # noqa: BLE001 - an author's catch-all does not keep import waiting
            pass
    double(x, out)


def test_after():
    double(torch.ones(4, 8), torch.zeros(4, 8))
