#!/usr/bin/env python3
"""Row normalisation with a dataclass config, written as a PyPTO example is: a module-level jit
kernel, a torch golden, and a main that picks the device and runs the test functions."""
import argparse
import os
from dataclasses import dataclass

import torch

import pypto


@dataclass
class RowNormConfig:
    eps: float = 1e-6
    tile_rows: int = 8
    dtype: pypto.DataType = pypto.DT_FP32


def row_norm_golden(x: torch.Tensor, gamma: torch.Tensor, eps: float) -> torch.Tensor:
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) * (x - mean)).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * gamma


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.NPU})
def row_norm_kernel(x: pypto.Tensor(), gamma: pypto.Tensor(), out: pypto.Tensor(), config: RowNormConfig):
    cols = x.shape[1]
    pypto.set_vec_tile_shapes(config.tile_rows, cols)
    mean = pypto.sum(x, dim=-1, keepdim=True) / cols
    centered = x - mean
    var = pypto.sum(centered * centered, dim=-1, keepdim=True) / cols
    pypto.assemble(centered / pypto.sqrt(var + config.eps) * gamma, [0, 0], out)


def test_row_norm(device, rows=16, cols=64):
    x = torch.randn(rows, cols, dtype=torch.float32, device=device)
    gamma = torch.rand(cols, dtype=torch.float32, device=device)
    out = torch.empty(rows, cols, dtype=torch.float32, device=device)
    config = RowNormConfig(eps=1e-5, tile_rows=4)
    row_norm_kernel(x, gamma, out, config)
    expected = row_norm_golden(x, gamma, config.eps)
    assert torch.allclose(out, expected, rtol=1e-4, atol=1e-4), "row norm mismatch"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--run_mode", default="npu", choices=["npu", "sim"])
    args = parser.parse_args()
    device = "cpu"
    if args.run_mode == "npu":
        device_id = os.environ.get("TILE_FWK_DEVICE_ID")
        if device_id is None:
            print("set TILE_FWK_DEVICE_ID")
            return
        torch.npu.set_device(int(device_id))
    test_row_norm(device)
    test_row_norm(device, rows=8, cols=32)


if __name__ == "__main__":
    main()
