"""A test that calls the kernel's wrapper ten times on the same inputs, as a benchmark loop does,
and compares only the last output (which the wrapper returns reshaped), with a golden computed
from the inputs. The kernel's body counts how often it runs, which the test prints."""
import torch

import pypto

BODY_RUNS = []


@pypto.frontend.jit()
def scale_kernel(
    x: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
    y: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
):
    BODY_RUNS.append(1)
    pypto.set_vec_tile_shapes(32, 32)
    y.move(pypto.mul(x, 1.5))


def scaled(x):
    y = torch.zeros(x.shape, dtype=torch.float32)
    scale_kernel(x, y)
    return y.reshape(-1, 16)


def test_benchmark_then_compare():
    torch.manual_seed(5)
    x = torch.randn(32, 64)
    for _ in range(10):
        y = scaled(x)
    print(f"body runs: {len(BODY_RUNS)}")
    torch.testing.assert_close(y, (x * 1.5).reshape(-1, 16), rtol=2e-3, atol=2e-3)
    # Other values: the kernel runs on them.
    x2 = x + 1.0
    torch.testing.assert_close(scaled(x2), (x2 * 1.5).reshape(-1, 16), rtol=2e-3, atol=2e-3)
