"""Cases for kernels of PyPTO's python/tests and models, for run_pypto_examples.py. These files
import torch_npu at module level, as PyPTO's tests run on an NPU: the kernel worker's CPU
stand-in for torch_npu lets them import. Each reference is written from what the file's own test
compares against; none of PyPTO's code is used. The other kernels of those trees are imported and
looked up only (LOADED).
"""
import torch

from run_pypto_examples import BF16, F16, I32, Run, case

VECTOR = "python/tests/st/operation/vector/"
TILES = {"view_shape": [32, 128], "tile_shape": [32, 32]}


@case(VECTOR + "test_ceildiv.py", "ceil_div_2d")
def _(r):
    x, y = r.randint(0, 100, (32, 128), dtype=I32), r.randint(1, 100, (32, 128), dtype=I32)
    return [Run({"x": x, "y": y}, {"out": torch.ceil(x / y).to(I32)}, params=TILES, tol=(0, 0))]


@case(VECTOR + "test_floordiv.py", "floor_div_2d")
def _(r):
    x, y = r.randint(0, 100, (32, 128), dtype=I32), r.randint(1, 100, (32, 128), dtype=I32)
    return [Run({"x": x, "y": y}, {"out": torch.floor_divide(x, y).to(I32)}, params=TILES, tol=(0, 0))]


def _with_specials(r, x):
    """NaN, +Inf and -Inf at random places, as the tests inject them."""
    flat = x.view(-1)
    for value in (float("nan"), float("inf"), float("-inf")):
        flat[r.randint(0, flat.numel(), (30,))] = value
    return x


@case(VECTOR + "test_isfinite.py", "isfinite_2d")
def _(r):
    x = _with_specials(r, r.rand(32, 128, dtype=F16))
    return [Run({"x": x}, {"out": torch.isfinite(x)}, params=TILES, tol=(0, 0))]


@case(VECTOR + "test_isnan.py", "isnan_2d_fp32")
def _(r):
    x = _with_specials(r, r.rand(32, 128))
    x.view(-1)[r.randint(0, x.numel(), (10,))] = -0.0
    return [Run({"x": x}, {"out": torch.isnan(x)}, params=TILES, tol=(0, 0))]


@case("python/tests/ut/simulator/test_add.py", "add_kernel")
def _(r):
    x, y = r.rand(1, 4, 1, 64), r.rand(1, 4, 1, 64)
    return [Run({"x": x, "y": y}, {"out": x + y}, tol=(3e-3, 3e-3))]


@case("models/qat/qat_impl.py", "ai_infra_qat_asymmetric_per_group_kernel")
def _(r):
    # ai_infra_qat_asymmetric_per_group's defaults: 4 bits, eps 1e-4, clip 0.99; 768 groups of 128
    # take both unroll lengths (512 and 256).
    n_levels, shift, eps, clip = 8, 0.5, 1e-4, 0.99
    weight = r.randn(768, 128, dtype=BF16)
    scale = (r.rand(768, 1) * 0.1 + 0.05).to(BF16)
    offset = (r.randn(768, 1) * 0.01).to(BF16)
    alpha = torch.clamp(scale.float(), min=eps) * n_levels
    levels = torch.round(torch.clamp((weight.float() - offset.float()) / alpha, -clip, clip) * n_levels - shift)
    want = ((levels + shift) / n_levels * alpha + offset.float()).to(BF16)
    params = {"eps": eps, "n_levels": n_levels, "neg_clip_val": -clip, "clip_val": clip, "shift": shift}
    return [
        Run(
            {"weight": weight, "scale": scale, "offset": offset}, {"output_bf16": want}, params=params, tol=(8e-3, 1e-3)
        )
    ]
