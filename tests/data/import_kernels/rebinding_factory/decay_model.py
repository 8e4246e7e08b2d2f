"""Runs the decay kernel as a model script does: the factory gets its sizes positionally, and a
comparison of the script's own reads its tensors and tolerances from keyword arguments."""
import torch

from decay_impl import make_decay_kernel


def compare(**kwargs):
    actual = kwargs.get("actual").float()
    expected = kwargs.get("expected").float()
    atol_abs = kwargs.get("atol_abs", 1e-5)
    atol_rel = kwargs.get("atol_rel", 1e-5)
    bad = (actual - expected).abs() > atol_abs + atol_rel * expected.abs()
    if bad.any():
        raise AssertionError(f"{int(bad.sum())} elements out of tolerance")


def run(rows, cols):
    x = torch.randn(rows, cols)
    y = torch.zeros(rows, cols)
    make_decay_kernel(rows, cols, 0.75)(x, y)
    compare(actual=y, expected=x * 0.75, name="y", atol_abs=2e-4, atol_rel=3e-3)


if __name__ == "__main__":
    run(16, 32)
