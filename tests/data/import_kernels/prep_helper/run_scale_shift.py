"""Makes the inputs and the golden together (the golden in NumPy, outside the reference subset),
runs the kernel and checks it with check_utils.compare on a float copy of the output."""
import numpy as np
import torch

from check_utils import compare
from scale_shift_impl import scale_shift_kernel


def gen_data(rows):
    x = torch.empty((rows, 32), dtype=torch.float16).uniform_(-1, 1)
    golden = torch.from_numpy(x.float().numpy() * 3.0 - 1.0)
    return x, golden


def run(rows):
    x, golden = gen_data(rows)
    out = torch.zeros(rows, 32, dtype=torch.float16)
    scale_shift_kernel(x, out)
    compare(out.cpu().float(), golden, "out", atol=1e-2, rtol=1e-2)


if __name__ == "__main__":
    run(16)
    run(24)
