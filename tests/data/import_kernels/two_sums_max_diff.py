"""Two outputs checked by their largest differences from an inline expression, as PyPTO's loop
examples are: `(out - expected).abs().max()` names what the output is compared with, and the
bound, a number or a name for one, is the tolerance."""
import torch

import pypto

TOLERANCE = 1e-2


@pypto.frontend.jit()
def two_sums_kernel(a: pypto.Tensor(), b: pypto.Tensor(), first: pypto.Tensor(), second: pypto.Tensor(), rows: int):
    pypto.set_vec_tile_shapes(8, 32)
    for i in pypto.loop(0, a.shape[0] // rows, 1):
        x = a[i * rows:(i + 1) * rows, :]
        y = b[i * rows:(i + 1) * rows, :]
        first[i * rows:(i + 1) * rows, :] = pypto.add(x, y)
        second[i * rows:(i + 1) * rows, :] = x - y


@pypto.frontend.jit()
def negate_kernel(x: pypto.Tensor(), out: pypto.Tensor()):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = pypto.neg(x)


def test_two_sums():
    a = torch.randn(32, 32, dtype=torch.float16)
    b = torch.randn(32, 32, dtype=torch.float16)
    first = torch.empty(32, 32, dtype=torch.float16)
    second = torch.empty(32, 32, dtype=torch.float16)
    atol_val = 1e-2
    two_sums_kernel(a, b, first, second, 8)
    # `first` was made by torch.empty; written, it is an input of the next kernel, and still
    # two_sums_kernel's output.
    negated = torch.empty(32, 32, dtype=torch.float16)
    negate_kernel(first, negated)
    expected = a + b
    max_diff1 = (first - expected).abs().max().item()
    max_diff2 = (second - (a - b)).abs().max().item()
    assert max_diff1 < atol_val, "first mismatch"
    assert TOLERANCE > max_diff2, "second mismatch"


if __name__ == "__main__":
    test_two_sums()
