"""SiLU checked by its largest absolute difference, as PyPTO's activation examples are: the bound
of `assert max_diff < …` is the tolerance (an atol, no rtol)."""
import torch

import pypto


@pypto.frontend.jit()
def silu_kernel(x: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32),
                out: pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 64)
    out[:] = x * pypto.sigmoid(x)


def silu_golden(x):
    return x * torch.sigmoid(x)


def main():
    x = torch.randn(16, 64, dtype=torch.float32)
    out = torch.empty(16, 64, dtype=torch.float32)
    silu_kernel(x, out)
    expected = silu_golden(x)
    max_diff = (out - expected).abs().max().item()
    print(f"Max difference: {max_diff:.6f}")
    if torch.isfinite(torch.tensor(max_diff)):
        assert max_diff < 5e-2, "Result mismatch!"


if __name__ == "__main__":
    main()
