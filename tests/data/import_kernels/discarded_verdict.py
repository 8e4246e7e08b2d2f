"""A sum checked by a `torch.allclose` whose verdict is dropped (a line of its own, as PyPTO's
attention example writes it): its tolerance holds the kernel to nothing, while the golden is
still what the test expected. The kept `assert torch.allclose` of the second kernel does give
its tolerance."""
import torch

import pypto


@pypto.frontend.jit()
def scaled_sum_kernel(a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                      b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                      out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = (a + b) * 0.5


@pypto.frontend.jit()
def difference_kernel(a: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                      b: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32),
                      out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    out[:] = a - b


def scaled_sum_golden(a, b):
    return (a + b) * 0.5


def main():
    a = torch.randn(16, 32)
    b = torch.randn(16, 32)
    out = torch.empty(16, 32)
    scaled_sum_kernel(a, b, out)
    golden = scaled_sum_golden(a, b)
    torch.allclose(out, golden, rtol=0, atol=1e-12)
    diff = torch.empty(16, 32)
    difference_kernel(a, b, diff)
    assert torch.allclose(diff, a - b, rtol=2e-4, atol=3e-5)


if __name__ == "__main__":
    main()
