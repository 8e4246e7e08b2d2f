"""Test functions that take a `device` no pytest fixture makes, as scripts run by their main
block write them: main() calls one of them with the device it sets up. Import runs the others with
the same value (halve_kernel is launched by test_halve alone) and not the one main ran again."""
import sys

import torch
import torch_npu  # noqa: F401

import pypto


@pypto.frontend.jit
def double_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, 2.0)


@pypto.frontend.jit
def halve_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, 0.5)


def _device():
    torch.npu.set_device(0)
    return "npu:0"


def _check(kernel, factor, rows, device):
    x = torch.randn(rows, 32).to(device)
    y = torch.zeros(rows, 32).to(device)
    kernel(x, y)
    torch.testing.assert_close(y.cpu(), x.cpu() * factor)
    return True


def test_double(device):
    return _check(double_kernel, 2.0, 16, device)


def test_halve(device):
    return _check(halve_kernel, 0.5, 8, device)


def main():
    device = _device()
    return all(runner(device) for runner in (test_double,))


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
