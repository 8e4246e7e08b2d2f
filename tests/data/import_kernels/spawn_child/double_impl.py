"""A test that starts a child process with multiprocessing's "spawn" (device isolation, as
PyPTO's test_dump_perf does) before it calls the kernel."""
import multiprocessing as mp

import pypto
import spawn_helper
import torch


@pypto.frontend.jit()
def double_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32), out: pypto.Tensor([4, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 8)
    out[:] = x * 2.0


def test_double_after_a_spawned_child():
    context = mp.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=spawn_helper.answer, args=(queue,))
    child.start()
    child.join(120)
    assert child.exitcode == 0, f"the spawned child exited with {child.exitcode}"
    assert queue.get(timeout=10) == 42
    x = torch.randn(4, 8)
    out = torch.empty(4, 8)
    double_kernel(x, out)
    torch.testing.assert_close(out, x * 2.0)
