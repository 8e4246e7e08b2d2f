"""A test that takes pytest fixtures: `device` from the conftest.py beside it, `factor` from this
file (with params: pytest's first is 2.0), pytest's own tmp_path and monkeypatch. A second test
takes a fixture nothing defines."""
import os

import pytest
import torch

import pypto


@pytest.fixture(params=[2.0, 4.0])
def factor(request):
    return request.param


def make_scale_kernel(factor):
    @pypto.frontend.jit
    def scale_kernel(x: pypto.Tensor([16, 32], pypto.DT_FP32), y: pypto.Tensor([16, 32], pypto.DT_FP32)):
        pypto.set_vec_tile_shapes(8, 32)
        y[:] = pypto.mul(x, factor)

    return scale_kernel


def test_scale(device, factor, tmp_path, monkeypatch):
    monkeypatch.setenv("SCALE_TEST_MODE", "fixture")
    assert os.environ["SCALE_TEST_MODE"] == "fixture"
    kernel = make_scale_kernel(factor)
    x = torch.randn(16, 32).to(device)
    y = torch.zeros(16, 32).to(device)
    kernel(x, y)
    (tmp_path / "sum.txt").write_text(str(float(y.sum())))
    torch.testing.assert_close(y.cpu(), x.cpu() * factor)


def test_on_two_cards(card_pair):
    assert len(card_pair) == 2
