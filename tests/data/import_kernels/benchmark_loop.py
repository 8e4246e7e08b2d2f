"""A test that calls the kernel's wrapper ten times on the same inputs, as a benchmark loop does,
and compares only the last output (which the wrapper returns reshaped), with a golden computed
from the inputs. The kernel's body counts how often it runs, which the test prints."""
import torch

import pypto

BODY_RUNS = []


def note_run():
    BODY_RUNS.append(1)


@pypto.frontend.jit()
def scale_kernel(
    x: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
    y: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
):
    note_run()
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


def make_scaler(factor):
    @pypto.frontend.jit()
    def scaler_kernel(
        x: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
        y: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
    ):
        pypto.set_vec_tile_shapes(32, 32)
        y.move(pypto.mul(x, factor))

    return scaler_kernel


def make_negator(factor):
    @pypto.frontend.jit()
    def scaler_kernel(
        x: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
        y: pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32),
    ):
        pypto.set_vec_tile_shapes(32, 32)
        y.move(pypto.mul(x, -1.0 if factor else 0.0))

    return scaler_kernel


def test_kernels_of_factories():
    """Kernels of one name and signature that factories make with other closures, or with other
    code, each compute their own, on the same inputs."""
    x = torch.randn(32, 64)
    for make, factor, expected in (
        (make_scaler, 2.0, 2.0),
        (make_scaler, 3.0, 3.0),
        (make_scaler, 3.0, 3.0),
        (make_negator, 3.0, -1.0),
    ):
        y = torch.zeros(32, 64)
        make(factor)(x, y)
        torch.testing.assert_close(y, x * expected)
