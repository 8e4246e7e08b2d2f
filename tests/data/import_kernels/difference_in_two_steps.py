"""A sweep that judges the kernel by its largest absolute difference, measured in two steps on a
float copy of the result a wrapper reshaped back (`d = (actual.float() - expected.float()).abs()`,
`mx = d.max().item()`), and notes a pass when it is within 0.01, asserting nothing."""
import torch

import pypto


@pypto.frontend.jit
def affine_kernel(x: pypto.Tensor([], pypto.DT_FP16), y: pypto.Tensor([], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(16, 32)
    y.move(pypto.add(pypto.mul(x, 0.5), 0.25))


def affine(x):
    x_2d = x.reshape(-1, x.shape[-1])
    y_2d = torch.empty(x_2d.shape, dtype=x.dtype)
    affine_kernel(x_2d, y_2d)
    return y_2d.reshape(x.shape)


def test_sweep():
    results = []
    for batch in (1, 2):
        x = torch.randn(batch, 16, 32, dtype=torch.float16)
        expected = x.float() * 0.5 + 0.25
        actual = affine(x).cpu().to(torch.float16)
        d = (actual.float() - expected.float()).abs()
        mx = d.max().item()
        results.append(mx <= 0.01)
    print("PASS" if all(results) else "FAIL")
