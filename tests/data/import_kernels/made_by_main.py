"""A demo launcher as PyPTO's matmul tests write one: it takes the run mode, builds its kernel
inside and calls it, and only the file's main block calls it."""
import argparse

import torch

import pypto


def run_double_demo(run_mode):
    rows, cols = 16, 32

    @pypto.frontend.jit
    def double_demo_kernel(x: pypto.Tensor([rows, cols], pypto.DT_FP32), y: pypto.Tensor([rows, cols], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, cols)
        y[:] = pypto.mul(x, 2.0)

    device = "npu:0" if run_mode == "npu" else "cpu"
    x = torch.randn(rows, cols, device=device)
    y = torch.empty(rows, cols, device=device)
    double_demo_kernel(x, y)
    torch.testing.assert_close(y.cpu(), x.cpu() * 2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--run_mode", default="npu", choices=["npu", "sim"])
    run_double_demo(parser.parse_args().run_mode)
