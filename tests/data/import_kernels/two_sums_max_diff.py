"""Two outputs checked by their largest differences from an inline expression, as PyPTO's loop
examples are: `(out - expected).abs().max()` names what the output is compared with."""
import torch

import pypto


@pypto.frontend.jit()
def two_sums_kernel(a: pypto.Tensor(), b: pypto.Tensor(), first: pypto.Tensor(), second: pypto.Tensor(), rows: int):
    pypto.set_vec_tile_shapes(8, 32)
    for i in pypto.loop(0, a.shape[0] // rows, 1):
        x = a[i * rows:(i + 1) * rows, :]
        y = b[i * rows:(i + 1) * rows, :]
        first[i * rows:(i + 1) * rows, :] = pypto.add(x, y)
        second[i * rows:(i + 1) * rows, :] = x - y


def test_two_sums():
    a = torch.randn(32, 32, dtype=torch.float16)
    b = torch.randn(32, 32, dtype=torch.float16)
    first = torch.empty(32, 32, dtype=torch.float16)
    second = torch.empty(32, 32, dtype=torch.float16)
    two_sums_kernel(a, b, first, second, 8)
    expected = a + b
    max_diff1 = (first - expected).abs().max().item()
    max_diff2 = (second - (a - b)).abs().max().item()
    assert max_diff1 < 1e-2, "first mismatch"
    assert max_diff2 < 1e-2, "second mismatch"


if __name__ == "__main__":
    test_two_sums()
