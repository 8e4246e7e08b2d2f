"""A kernel whose every call stops in the simulator (an op it does not run) before writing
anything: import cannot tell its outputs, and says why."""
import torch

import pypto


@pypto.frontend.jit
def running_total(x: pypto.Tensor([16, 32], pypto.DT_FP32), out: pypto.Tensor([16, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(16, 32)
    out[:] = pypto.cumsum(x, 0)


def test_running_total():
    x = torch.rand(16, 32)
    out = torch.rand(16, 32)
    running_total(x, out)
    torch.testing.assert_close(out, torch.cumsum(x, 0))
