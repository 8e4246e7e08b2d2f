#!/usr/bin/python3
"""Runs jit kernels written in PyPTO's style in the workbench's kernel worker and checks their
outputs against torch references written here: PyPTO's examples, python/tests and models, or the
kernels of this repository.

    [PYTHON] tests/tools/run_pypto_examples.py [--root DIR] [--worker PATH] [-k FILTER] [PATH...]

--root (default: $PYPTO_EXAMPLES) is a checkout of hicann/pypto, and the PATHs (files or folders
in it) default to examples/, python/tests/ and models/. Without a root the script prints SKIP and
exits 77, CTest's skip. CTest also runs it with --root the workbench's source folder on projects/,
resources/templates and tests/data (pypto_local_cases.py), with --all-must-pass.

The kernels run in the interpreter that runs the script (or --python PATH), e.g. a venv's
bin/python with the newest torch; it needs numpy and torch. Every file runs unmodified, as the
workbench runs a kernel.py: the worker imports it with the workbench's own `pypto` (and its CPU
stand-in for torch_npu, which many of PyPTO's tests import at module level) and calls the kernel
function with the case's tensors and parameters, bound by name. A kernel that the file builds
inside a factory, or that takes a dataclass config, runs through a small generated module (in a
temporary folder) that imports the file and exposes the kernel exactly as the file builds it.

Each kernel with a case gets inputs of the shapes and dtypes its file uses (its own values where
it hard-codes them, seeded random ones otherwise) and the tolerance its test checks with. The
references are written from what each file's test compares against; none of PyPTO's code is
used. A kernel without a case is imported and looked up only (LOADED). Output: one line per
kernel, PASS / FAIL / UNSUPPORTED (what the simulator reports as not supported) / UNAVAILABLE
(a module or torch this machine lacks) / LOADED file::kernel[: reason], then the counts. Exit
status 1 when anything failed (or nothing ran).
"""
import argparse
import ast
import json
import math
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_WORKER = "build/release/lib/ptowb/ptowb-kernel-worker"

F32, F16, BF16, I32, I64 = torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64
DTYPE_NAMES = {
    torch.bool: "bool",
    torch.uint8: "uint8",
    torch.int8: "int8",
    torch.int16: "int16",
    torch.int32: "int32",
    torch.int64: "int64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.float32: "float32",
    torch.float64: "float64",
}
TRACE_MARK = "[run_pypto_examples traceback]"


# ----------------------------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------------------------


class Run:
    """One call of a kernel: its inputs, the outputs it must produce, its non-tensor parameters."""

    def __init__(self, inputs, expected, params=None, tol=(1e-3, 1e-3), init=None, setup=None, label="", mutated=None):
        self.inputs = dict(inputs)  # name -> torch tensor
        self.expected = dict(expected)  # output name -> expected torch tensor (shape and dtype of the output)
        self.mutated = dict(mutated or {})  # input the kernel updates in place -> what it holds after
        self.params = dict(params or {})  # JSON-able non-tensor parameters
        self.rtol, self.atol = tol
        self.init = dict(init or {})  # output name -> initial value, where the example pre-fills it
        self.setup = setup  # wrapper setup code (see Wrapper), or None to call the example's function
        self.label = label


class ExpectError:
    """The kernel cannot run in PyPTO either: the worker must report an error matching `pattern` at `line`."""

    def __init__(self, pattern, line, why, run):
        self.pattern, self.line, self.why, self.run = pattern, line, why, run


CASES = {}


def case(path, kernel):
    def register(fn):
        CASES[(path, kernel)] = fn
        return fn

    return register


class Rand:
    """Seeded inputs, one generator per kernel."""

    def __init__(self, seed):
        self.g = torch.Generator().manual_seed(seed)

    def randn(self, *shape, dtype=F32):
        return torch.randn(*shape, generator=self.g).to(dtype)

    def rand(self, *shape, dtype=F32):
        return torch.rand(*shape, generator=self.g).to(dtype)

    def randint(self, low, high, shape, dtype=I64):
        return torch.randint(low, high, shape, generator=self.g).to(dtype)


def T(values, dtype=F32):
    return torch.tensor(values, dtype=dtype)


def mm(a, b, dtype):
    """A cube matmul: fp32 accumulation of the (upcast) operands, one rounding to the output dtype."""
    return torch.matmul(a.float(), b.float()).to(dtype)


def softmax32(x, dim=-1):
    return torch.softmax(x.float(), dim=dim)


def gelu_sigmoid(x):
    return x * torch.sigmoid(1.702 * x)


# Wrapper setups: Python run in the generated module, with the example module as `_ex`; they
# define `_target` (what the example calls) and optionally `_bound` (arguments the example passes
# that JSON cannot carry, e.g. a dataclass config).


def bound(kernel, **exprs):
    items = ", ".join(f"{k!r}: {v}" for k, v in exprs.items())
    return f"_target = _ex.{kernel}\n_bound = {{{items}}}\n"


def factory(expr):
    return f"_target = {expr}\n_bound = {{}}\n"


def captured(call):
    """The example defines the kernel inside a function that also calls it with torch tensors:
    run that function as the example does, with pypto.frontend.jit recording the kernel it makes
    (and that one call doing nothing), and expose the recorded kernel."""
    return (
        "import pypto as _pypto\n"
        "import torch\n"
        "_made = []\n"
        "_real_jit = _pypto.frontend.jit\n"
        "class _Recorded:\n"
        "    def __init__(self, jf):\n"
        "        _made.append(jf)\n"
        "    def __call__(self, *args, **kwargs):\n"
        "        return None\n"
        "def _recording_jit(fn=None, **options):\n"
        "    if fn is not None and callable(fn) and not options:\n"
        "        return _Recorded(_real_jit(fn))\n"
        "    return lambda f: _Recorded(_real_jit(**options)(f))\n"
        "_pypto.frontend.jit = _recording_jit\n"
        "try:\n"
        f"    _ex.{call}\n"
        "finally:\n"
        "    _pypto.frontend.jit = _real_jit\n"
        "_target = _made[-1]\n"
        "_bound = {}\n"
    )


# ---- examples/00_hello_world ------------------------------------------------------------------


@case("examples/00_hello_world/hello_world.py", "add_kernel")
def _(r):
    x, y = r.randn(64, 64), r.randn(64, 64)
    return [Run({"x": x, "y": y}, {"out": x + y})]


# ---- examples/01_beginner/basic/basic_ops.py --------------------------------------------------

BASIC = "examples/01_beginner/basic/basic_ops.py"


@case(BASIC, "add_kernel")
def _(r):
    a, b = r.randn(64, 64, dtype=F16), r.randn(64, 64, dtype=F16)
    return [Run({"a": a, "b": b}, {"out": ((a.float() + b.float()).half().float() * 2.0).half()})]


@case(BASIC, "erfc_kernel")
def _(r):
    x = r.randn(64, 64)
    return [Run({"x": x}, {"out": torch.erfc(x)})]


@case(BASIC, "matmul_kernel")
def _(r):
    a, b = r.randn(64, 128, dtype=BF16), r.randn(128, 64, dtype=BF16)
    return [Run({"a": a, "b": b}, {"out": mm(a, b, BF16)})]


@case(BASIC, "sum_kernel")
def _(r):
    a = T([[1, 2, 3], [4, 5, 6]])
    return [Run({"a": a}, {"out": a.sum(-1)})]


@case(BASIC, "dynamic_add_kernel")
def _(r):
    # The example skips its check in SIM mode; on the NPU it checks with 1e-2.
    x = r.randn(512, 512, dtype=F16)
    return [
        Run(
            {"x": x},
            {"output": (x.float() * 2).half()},
            params={"block_m": 128, "block_n": 128, "tile_m": 32, "tile_n": 32},
            tol=(1e-2, 1e-2),
        )
    ]


# ---- examples/01_beginner/compute/elementwise_ops.py ------------------------------------------

ELEM = "examples/01_beginner/compute/elementwise_ops.py"


def _unary_case(kernel, arg, values, fn):
    @case(ELEM, kernel)
    def _(r):
        a = T(values)
        return [Run({arg: a}, {"out": fn(a)})]


def _binary_case(kernel, pairs, fn):
    @case(ELEM, kernel)
    def _(r):
        return [Run({"a": T(a), "b": T(b)}, {"out": fn(T(a), T(b))}) for a, b in pairs]


def _scalar_case(kernel, arg, values, pname, scalar, fn):
    @case(ELEM, kernel)
    def _(r):
        a = T(values)
        return [Run({arg: a}, {"out": fn(a, scalar)}, params={pname: scalar})]


_unary_case("abs_kernel", "x", [-1, -8, 2], torch.abs)
_binary_case("add_kernel", [([1, 2, 3], [4, 5, 6])], torch.add)
_binary_case("add_broadcast_kernel", [([[1, 2], [3, 4]], [1, 2])], torch.add)
_scalar_case("add_scalar_kernel", "x", [1, 2, 3], "scalar", 2.0, torch.add)
_binary_case("div_kernel", [([6, 10, 15], [2, 5, 3])], torch.div)
_binary_case("div_broadcast_kernel", [([[1, 2], [3, 4]], [1, 2])], torch.div)
_scalar_case("div_scalar_kernel", "a", [1, 2, 3], "scalar", 2.0, torch.div)
_unary_case("exp_kernel", "x", [0, 1, 2], torch.exp)
_unary_case("exp2_kernel", "x", [0, 1, 2], torch.exp2)
_unary_case("expm1_kernel", "x", [0, 1, 2], torch.expm1)
_unary_case("log_kernel", "a", [1, 2, 3], torch.log)
_binary_case("mul_kernel", [([1, 2, 3], [4, 5, 6])], torch.mul)
_binary_case("mul_broadcast_kernel", [([[1, 2], [3, 4]], [1, 2])], torch.mul)
_scalar_case("mul_scalar_kernel", "a", [1, 2, 3], "scalar", 2.0, torch.mul)
_unary_case("neg_kernel", "a", [[1, 4], [16, 9]], torch.neg)
_scalar_case("pow_kernel", "a", [3, 3], "b", 2.0, torch.pow)
_scalar_case("round_kernel", "a", [[1.21, 2.35], [3.65, 4.76]], "decimals", 1, lambda a, d: torch.round(a, decimals=d))
_unary_case("rsqrt_kernel", "a", [[1, 4], [16, 9]], torch.rsqrt)
_unary_case("ceil_kernel", "a", [[1.2, 4.7], [-1.1, 9.0]], torch.ceil)
_unary_case("floor_kernel", "a", [[1.2, 4.7], [-1.1, 9.0]], torch.floor)
_unary_case("trunc_kernel", "a", [[1.2, 4.1], [16.8, 9.3]], torch.trunc)
_unary_case("sqrt_kernel", "a", [[1, 4], [16, 9]], torch.sqrt)
_binary_case("sub_kernel", [([4, 5, 6], [1, 2, 3])], torch.sub)
_binary_case("sub_broadcast_kernel", [([[1, 2], [3, 4]], [1, 2])], torch.sub)
_scalar_case("sub_scalar_kernel", "a", [1, 2, 3], "scalar", 2.0, torch.sub)


@case(ELEM, "clip_kernel")
def _(r):
    a, lo, hi = T([[0, 2, 4], [3, 4, 6]]), T([[1, 1, 1], [1, 1, 1]]), T([[3, 3, 3], [3, 3, 3]])
    return [Run({"a": a, "min_": lo, "max_": hi}, {"out": torch.minimum(torch.maximum(a, lo), hi)})]


@case(ELEM, "clip_broadcast_kernel")
def _(r):
    a, lo, hi = T([[0, 2, 4], [3, 4, 6]]), T([1, 1, 1]), T([3, 3, 3])
    return [Run({"a": a, "min_": lo, "max_": hi}, {"out": torch.minimum(torch.maximum(a, lo), hi)})]


# ---- examples/01_beginner/compute/matmul_ops.py -----------------------------------------------

MATMUL = "examples/01_beginner/compute/matmul_ops.py"


@case(MATMUL, "matmul_kernel")
def _(r):
    # test_matmul_basic and the first call of test_matmul_trans
    pairs = [([[1, 2], [3, 4]], [[5, 6], [7, 8]]), ([[1, 2, 3], [4, 5, 6]], [[7, 8], [9, 10], [11, 12]])]
    return [Run({"a": T(a), "b": T(b)}, {"out": T(a) @ T(b)}) for a, b in pairs]


@case(MATMUL, "matmul_batch_kernel")
def _(r):
    a, b = T([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), T([[[5, 6], [7, 8]], [[1, 2], [3, 4]]])
    return [Run({"a": a, "b": b}, {"out": torch.matmul(a, b)})]


@case(MATMUL, "matmul_broadcast_kernel")
def _(r):
    a, b = T([[[1, 2], [3, 4]]]), T([[[5, 6], [7, 8]], [[1, 2], [3, 4]]])
    return [Run({"a": a, "b": b}, {"out": torch.matmul(a, b)})]


@case(MATMUL, "matmul_trans_right_kernel")
def _(r):
    a, b = T([[1, 2, 3], [4, 5, 6]]), T([[7, 9, 11], [8, 10, 12]])
    return [Run({"a": a, "b": b}, {"out": a @ b.T})]


@case(MATMUL, "matmul_trans_left_kernel")
def _(r):
    a, b = T([[1, 4], [2, 5], [3, 6]]), T([[7, 8], [9, 10], [11, 12]])
    return [Run({"a": a, "b": b}, {"out": a.T @ b})]


@case(MATMUL, "matmul_bias_kernel")
def _(r):
    a, b, bias = T([[1, 2], [3, 4]]), T([[5, 6], [7, 8]]), T([[1, 2]])
    return [Run({"a": a, "b": b, "bias": bias}, {"out": a @ b + bias})]


# ---- examples/01_beginner/compute/reduce_ops.py (kernels made inside *_op factories) -----------

REDUCE = "examples/01_beginner/compute/reduce_ops.py"
_R2 = [[1, 2, 3], [4, 5, 6]]
_R3 = [[[10, 20, 30, 40], [15, 25, 35, 45], [12, 22, 32, 42]], [[5, 28, 33, 41], [18, 21, 36, 44], [11, 29, 31, 43]]]


def _reduce_case(kernel, op, fn):
    @case(REDUCE, kernel)
    def _(r):
        runs = []
        for values, dim, keepdim in [
            (_R2, -1, False),
            (_R2, -1, True),
            (_R3, 0, False),
            (_R3, 1, False),
            (_R3, -1, False),
        ]:
            a = T(values)
            setup = captured(f"{op}(torch.tensor({values!r}, dtype=torch.float32), {dim}, keepdim={keepdim})")
            runs.append(
                Run(
                    {"a": a},
                    {"out": fn(a, dim=dim, keepdim=keepdim)},
                    setup=setup,
                    label=f"shape {list(a.shape)}, dim={dim}, keepdim={keepdim}",
                )
            )
        return runs


_reduce_case("sum_kernel", "sum_op", torch.sum)
_reduce_case("amax_kernel", "amax_op", torch.amax)
_reduce_case("amin_kernel", "amin_op", torch.amin)


def _elementwise_factory_case(kernel, op, fn, pairs):
    @case(REDUCE, kernel)
    def _(r):
        runs = []
        for a, b in pairs:
            setup = captured(
                f"{op}(torch.tensor({a!r}, dtype=torch.float32), torch.tensor({b!r}, dtype=torch.float32))"
            )
            runs.append(Run({"a": T(a), "b": T(b)}, {"out": fn(T(a), T(b))}, setup=setup))
        return runs


_elementwise_factory_case(
    "maximum_kernel",
    "maximum_op",
    torch.maximum,
    [([0, 2, 4], [3, 1, 3]), ([[1, 2, 3], [4, 5, 6]], [[0, 9, 2], [1, 3, 10]])],
)
_elementwise_factory_case(
    "minimum_kernel",
    "minimum_op",
    torch.minimum,
    [([0, 2, 4], [3, 1, 3]), ([[1, 2, 3], [4, 5, 6]], [[0, 9, 2], [1, 3, 10]])],
)


# ---- examples/01_beginner/tiling/tiling_config.py ---------------------------------------------

TILING = "examples/01_beginner/tiling/tiling_config.py"


@case(TILING, "compute_with_cube_tile_shapes_kernel")
def _(r):
    a1, b1 = T([[1, 2], [3, 4]]), T([[5, 6], [7, 8]])
    a2, b2 = r.randn(4, 6), r.randn(6, 4)
    return [Run({"a": a1, "b": b1}, {"out": a1 @ b1}), Run({"a": a2, "b": b2}, {"out": a2 @ b2})]


@case(TILING, "compute_with_different_tile_shapes")
def _(r):
    x, y = T([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), T([[[5, 6], [7, 8]], [[1, 2], [3, 4]]])
    want = torch.matmul(x, y)
    return [
        Run(
            {"x": x, "y": y},
            {"out1": want, "out2": want, "out3": want},
            setup=factory("_ex.create_different_tile_shapes_kernel()"),
        )
    ]


def _tile_runtime_case(kernel):
    @case(TILING, kernel)
    def _(r):
        # The example only times this kernel; the check is the matmul it computes (fp32).
        a, b = r.randn(4, 64, 512), r.randn(4, 128, 512)
        return [Run({"a": a, "b": b}, {"out": torch.matmul(a, b.transpose(1, 2))})]


_tile_runtime_case("compute_with_tile_32_kernel")
_tile_runtime_case("compute_with_tile_64_kernel")


@case(TILING, "compute_with_vec_tile_shapes_kernel")
def _(r):
    a1, b1 = T([[[1, 2, 3], [1, 2, 3]]]), T([[[4, 5, 6], [4, 5, 6]]])
    a2, b2 = T([[[[1, 2, 3], [4, 5, 6]]]]), T([[[[7, 8, 9], [10, 11, 12]]]])
    return [
        Run({"a": a1, "b": b1}, {"out": a1 + b1}, params={"set_shapes": [1, 2, 8]}),
        Run({"a": a2, "b": b2}, {"out": a2 + b2}, params={"set_shapes": [1, 1, 4, 8]}),
    ]


@case(TILING, "compute_with_vec_different_tile_shapes_kernel")
def _(r):
    a, b = T([[[1, 2, 3], [1, 2, 3]]]), T([[[4, 5, 6], [4, 5, 6]]])
    return [Run({"a": a, "b": b}, {"out1": a + b, "out2": a + b, "out3": a + b})]


@case(TILING, "compute_with_vec_tile_kernel")
def _(r):
    # The example only times this kernel; the check is the add it computes.
    a, b = r.randn(4, 32, 64, 256), r.randn(4, 32, 64, 256)
    return [
        Run({"a": a, "b": b}, {"out": a + b}, params={"set_shapes": list(s)}) for s in ((1, 2, 4, 128), (2, 4, 8, 256))
    ]


# ---- examples/01_beginner/transform -----------------------------------------------------------


@case("examples/01_beginner/transform/add_scalar_loop_view_assemble.py", "add_scalar_loop_view_assemble_kernel")
def _(r):
    x, y = r.rand(32, 32, 1, 256), r.rand(32, 32, 1, 256)
    return [Run({"input0": x, "input1": y}, {"output": x + y}, tol=(3e-3, 3e-3))]


TRANSFORM = "examples/01_beginner/transform/transform_ops.py"


@case(TRANSFORM, "assemble_kernel")
def _(r):
    runs = []
    for x, shape, offsets in [
        (torch.ones(2, 2), (4, 4), [0, 0]),
        (torch.full((2, 2), 2.0), (4, 4), [1, 1]),
        (torch.ones(2, 3), (5, 5), [1, 1]),
    ]:
        want = torch.zeros(shape)
        want[offsets[0] : offsets[0] + x.shape[0], offsets[1] : offsets[1] + x.shape[1]] = x
        runs.append(Run({"x": x}, {"out": want}, params={"offsets": offsets}, init={"out": 0}))
    return runs


@case(TRANSFORM, "gather_kernel")
def _(r):
    i2 = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14]]
    x2 = [[0, 1, 2, 0], [1, 2, 0, 1], [2, 2, 1, 0]]
    i3 = [[[10, 20, 30, 40], [50, 60, 70, 80], [90, 100, 110, 120]], [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]]
    x3 = [[[0, 3], [2, 1], [3, 3]], [[1, 2], [0, 3], [2, 0]]]
    runs = []
    for inp, idx, dim in [(i2, x2, 0), (i3, x3, 2), (i2, x2, -1)]:
        inp, idx = T(inp, I32), T(idx, I32)
        runs.append(
            Run(
                {"input_tensor": inp, "index_tensor": idx},
                {"out": torch.gather(inp, dim, idx.long())},
                params={"dim": dim},
            )
        )
    return runs


def _scatter_case(kernel, dim, src):
    @case(TRANSFORM, kernel)
    def _(r):
        x = r.rand(3, 5)
        y = r.randint(0, 3, (3, 5))
        # numpy's assert_allclose defaults: rtol=1e-7, atol=0
        return [
            Run(
                {"x": x, "y": y},
                {"out": torch.scatter(x, dim, y, src)},
                params={"dim": dim, "src": src},
                tol=(1e-7, 0.0),
            )
        ]


_scatter_case("scatter_kernel", 0, 0.5)
_scatter_case("scatter_update_kernel", -2, 2.0)


@case(TRANSFORM, "concat_kernel")
def _(r):
    runs = []
    for a, b, dim in [
        (torch.ones(2, 2), torch.zeros(2, 2), 0),
        (torch.ones(2, 2), torch.zeros(2, 2), 1),
        (torch.ones(2, 2), torch.zeros(1, 2), 0),
    ]:
        runs.append(
            Run(
                {"a": a, "b": b},
                {"out": torch.cat([a, b], dim)},
                setup=factory(f"_ex.concat_op({tuple(a.shape)!r}, {tuple(b.shape)!r}, {dim})"),
            )
        )
    return runs


@case(TRANSFORM, "concat_multiple_kernel")
def _(r):
    a, b, c = torch.ones(2, 2), torch.zeros(2, 2), torch.full((2, 2), 2.0)
    return [
        Run(
            {"a": a, "b": b, "c": c},
            {"out": torch.cat([a, b, c], 0)},
            setup=factory("_ex.concat_multiple_op((2, 2), (2, 2), (2, 2), 0)"),
        )
    ]


@case(TRANSFORM, "view_kernel")
def _(r):
    x = T([[1, 1, 2, 2, 3, 3, 4, 4]] * 4)
    return [Run({"x": x}, {"out": x[0:4, 4:8]}, params={"shape": [4, 4], "offsets": [0, 4]}, init={"out": 0})]


@case(TRANSFORM, "view_with_valid_shape_kernel")
def _(r):
    x = T([[1, 1, 2, 2, 3, 3, 4, 4], [1, 1, 2, 2, 3, 3, 4, 4], [1, 1, 2, 2, 5, 5, 6, 6], [1, 1, 2, 2, 5, 5, 6, 6]])
    want = torch.zeros(4, 4)
    want[0:2] = x[2:4, 4:8]  # only the valid [2, 4] region is written; the zero-filled rest stays
    return [
        Run(
            {"x": x}, {"out": want}, params={"shape": [4, 4], "offsets": [2, 4], "valid_shape": [2, 4]}, init={"out": 0}
        )
    ]


@case(TRANSFORM, "transpose_kernel")
def _(r):
    x = T([[1.0028, -0.9893, 0.5809], [-0.1669, 0.7299, 0.4942]])
    return [Run({"x": x}, {"out": x.transpose(0, 1).contiguous()}, params={"dim0": 0, "dim1": 1})]


@case(TRANSFORM, "cast_kernel")
def _(r):
    x = T([2.0, 3.0])
    return [Run({"x": x}, {"out": x.half()})]


# ---- examples/02_intermediate/basic_nn --------------------------------------------------------

FFN = "examples/02_intermediate/basic_nn/ffn/ffn_module.py"


def _ffn_inputs(r, batch, hidden, inter, dtype):
    s = math.sqrt(batch)
    h = r.randn(batch, hidden, dtype=dtype) / s
    gate = r.randn(hidden, inter, dtype=dtype) / s
    up = r.randn(hidden, inter, dtype=dtype) / s
    down = r.randn(inter, hidden, dtype=dtype) / s
    return h, gate, up, down


def _ffn_config(batch, hidden, inter, activation, dtype, dynamic, vec, cube, basic_batch=None):
    extra = f", basic_batch={basic_batch}" if basic_batch else ""
    return (
        f"_ex.FFNConfig(batch_size={batch}, hidden_size={hidden}, intermediate_size={inter}, "
        f"activation={activation!r}, dtype=_ex.pypto.{dtype}, use_dynamic_shape={dynamic}, vec_tile_shape={vec!r}, "
        f"cube_tile_shape={cube!r}{extra}, run_mode=_ex.pypto.RunMode.SIM)"
    )


@case(FFN, "ffn_activation_kernel")
def _(r):
    runs = []
    for activation, dtype, dt, vec, cube in [
        ("gelu", BF16, "DT_BF16", (16, 32), (16, 32, 32)),
        ("swiglu", BF16, "DT_BF16", (16, 32), (16, 32, 32)),
        ("relu", F16, "DT_FP16", (32, 64), (32, 64, 64)),
    ]:
        h, gate, up, down = _ffn_inputs(r, 16, 128, 1024, dtype)
        if activation == "gelu":
            act = gelu_sigmoid(mm(h, up, dtype).float()).to(BF16)
        elif activation == "swiglu":
            g, u = mm(h, gate, dtype).float(), mm(h, up, dtype).float()
            act = (g * torch.sigmoid(g) * u).to(BF16)
        else:
            act = torch.relu(mm(h, up, dtype).float()).to(dtype)
        want = mm(act, down, dtype)
        config = _ffn_config(16, 128, 1024, activation, dt, False, vec, cube)
        runs.append(
            Run(
                {"hidden_states": h, "gate_proj_weight": gate, "up_proj_weight": up, "down_proj_weight": down},
                {"output": want},
                tol=(3e-3, 3e-3),
                setup=bound("ffn_activation_kernel", config=config),
                label=activation,
            )
        )
    return runs


@case(FFN, "dynamic_gelu_activation_core")
def _(r):
    h, _gate, up, down = _ffn_inputs(r, 32, 512, 1024, BF16)
    want = mm(gelu_sigmoid(mm(h, up, BF16).float()).to(BF16), down, BF16)
    config = _ffn_config(32, 512, 1024, "gelu", "DT_BF16", True, (32, 64), (32, 64, 64), basic_batch=16)
    return [
        Run(
            {"hidden_states": h, "up_proj_weight": up, "down_proj_weight": down},
            {"output": want},
            tol=(3e-3, 3e-3),
            setup=bound("dynamic_gelu_activation_core", config=config),
        )
    ]


NORM = "examples/02_intermediate/basic_nn/layer_normalization/layer_norm.py"


def layer_norm_ref(x, gamma, beta, eps=1e-6):
    x = x.float()
    mean = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=False)
    return ((x - mean) / torch.sqrt(var + eps) * gamma.float() + beta.float()).to(BF16)


def rms_norm_ref(x, gamma, eps=1e-6):
    x = x.float()
    return (x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps) * gamma.float()).to(BF16)


@case(NORM, "layer_norm_kernel")
def _(r):
    x, gamma, beta = r.randn(32, 128, dtype=BF16), torch.ones(128, dtype=BF16), torch.zeros(128, dtype=BF16)
    return [
        Run(
            {"x": x, "gamma": gamma, "beta": beta},
            {"output": layer_norm_ref(x, gamma, beta)},
            tol=(0.0, 0.1),
            setup=bound("layer_norm_kernel", config="_ex.NormConfig(norm_type='layernorm', dtype=_ex.pypto.DT_BF16)"),
        )
    ]


@case(NORM, "rms_norm_kernel")
def _(r):
    x, gamma = r.randn(32, 128, dtype=BF16), torch.ones(128, dtype=BF16)
    return [
        Run(
            {"x": x, "gamma": gamma},
            {"output": rms_norm_ref(x, gamma)},
            tol=(0.0, 0.1),
            setup=bound("rms_norm_kernel", config="_ex.NormConfig(norm_type='rmsnorm', dtype=_ex.pypto.DT_BF16)"),
        )
    ]


# ---- examples/02_intermediate/operators -------------------------------------------------------

ACT = "examples/02_intermediate/operators/activation/activation.py"


@case(ACT, "silu_activation_kernel")
def _(r):
    x = r.randn(32, 128, dtype=BF16)
    xf = x.float()
    return [Run({"x": x}, {"out": (xf * torch.sigmoid(xf)).to(BF16)}, tol=(0.0, 0.1))]


@case(ACT, "gelu_activation_kernel")
def _(r):
    x = r.randn(32, 128, dtype=BF16)
    return [Run({"x": x}, {"out": F.gelu(x.float()).to(BF16)}, tol=(0.0, 0.1))]


@case(ACT, "swiglu_activation_kernel")
def _(r):
    g, u = r.randn(32, 128, dtype=BF16), r.randn(32, 128, dtype=BF16)
    gf = g.float()
    return [Run({"gate": g, "up": u}, {"out": (gf * torch.sigmoid(gf) * u.float()).to(BF16)}, tol=(0.0, 0.1))]


@case(ACT, "geglu_activation_kernel")
def _(r):
    g, u = r.randn(32, 128, dtype=BF16), r.randn(32, 128, dtype=BF16)
    return [Run({"gate": g, "up": u}, {"out": (F.gelu(g.float()) * u.float()).to(BF16)}, tol=(0.0, 0.1))]


@case("examples/02_intermediate/operators/softmax/softmax.py", "softmax_kernel")
def _(r):
    x = r.rand(32, 32, 1, 256)
    return [
        Run({"input_tensor": x}, {"output_tensor": torch.softmax(x, -1)}, tol=(3e-3, 3e-3), init={"output_tensor": 0})
    ]


# ---- examples/02_intermediate/controlflow -----------------------------------------------------

KINPUT = "examples/02_intermediate/controlflow/others/kernel_input.py"


def sdpa_ref(q, k, v, scale):
    return torch.matmul(torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * scale, -1), v)


@case(KINPUT, "scaled_dot_product_attention_kernel")
def _(r):
    q, k, v = (r.randn(8, 8, 64, 64) for _ in range(3))
    config = "_ex.AttentionConfig(num_heads=8, head_dim=64, dtype=_ex.pypto.DT_FP32, use_dynamic_shape=True)"
    return [
        Run(
            {"q": q, "k": k, "v": v},
            {"output_tensor": sdpa_ref(q, k, v, 1 / 8)},
            params={"tile": 8},
            tol=(3e-3, 3e-3),
            setup=bound("scaled_dot_product_attention_kernel", config=config),
        )
    ]


@case(KINPUT, "op_unordered_input_kernel")
def _(r):
    a, b = r.rand(3, 2), r.rand(3, 2)
    return [Run({"a": a, "b": b}, {"out1": a + b, "out2": a * b})]


DYN = "examples/02_intermediate/controlflow/others/dynamic.py"


@case(DYN, "dynamic_mul_kernel")
def _(r):
    runs = []
    for bs in (8, 16):
        x = r.randn(bs, 128, dtype=F16)
        runs.append(Run({"x": x}, {"output": (x.float() * 2).half()}, params={"tile_b": bs}, init={"output": 0}))
    return runs


@case(DYN, "softmax_kernel")
def _(r):
    runs = []
    for bs in (8, 32):
        x = r.rand(bs, 32, 1, 256)
        runs.append(Run({"input_tensor": x}, {"output_tensor": torch.softmax(x, -1)}, init={"output_tensor": 0}))
    return runs


@case(DYN, "attention_kernel")
def _(r):
    runs = []
    for bs, sq, skv in [(2, 16, 16), (4, 32, 32), (8, 64, 64)]:
        q, k, v = r.randn(bs, 8, sq, 64), r.randn(bs, 8, skv, 64), r.randn(bs, 8, skv, 64)
        config = "_ex.AttentionConfig(num_heads=8, head_dim=64, dtype=_ex.pypto.DT_FP32)"
        runs.append(
            Run(
                {"q": q, "k": k, "v": v},
                {"output_tensor": sdpa_ref(q, k, v, 1 / 8)},
                params={"tile": bs},
                tol=(3e-3, 3e-3),
                setup=bound("attention_kernel", config=config),
                label=f"batch {bs}, seq {sq}",
            )
        )
    return runs


@case(DYN, "dynamic_add_kernel")
def _(r):
    runs = []
    for bs, hs in [(8, 64), (16, 128)]:
        x, y = r.randn(bs, hs, dtype=F16), r.randn(bs, hs, dtype=F16)
        runs.append(
            Run(
                {"x": x, "y": y},
                {"output": (x.float() + y.float()).half()},
                params={"tile_b": bs, "tile_h": hs},
                init={"output": 0},
            )
        )
    return runs


COND = "examples/02_intermediate/controlflow/condition/condition.py"


@case(COND, "nested_loops_with_conditions_kernel")
def _(r):
    a, b = r.rand(2, 2), r.rand(2, 2)
    want = torch.stack([a[0] + b[0], a[1] - b[1]])
    return [Run({"a": a, "b": b}, {"y": want}, init={"y": 0})]


def _add_loop_case(path, kernel, flag=None, rows=None):
    @case(path, kernel)
    def _(r):
        x, y = r.rand(32, 32, 1, 256), r.rand(32, 32, 1, 256)
        want = x + y
        params = {"val": 1}
        if flag is not None:
            params["flag"] = flag
            want = want + 1 if flag else want
        for row, extra in (rows or {}).items():
            want[row] += extra
        return [Run({"input0": x, "input1": y}, {"output": want}, params=params, tol=(3e-3, 3e-3))]


_add_loop_case(COND, "add_scalar_loop_dyn_axis_static_cond_kernel_static", flag=False)
_add_loop_case(COND, "add_scalar_loop_dyn_axis_static_cond_kernel_dynamic", flag=True)
_add_loop_case(COND, "add_scalar_loop_dyn_axis_dyn_cond_kernel", rows={0: 1, 1: 1})
_add_loop_case(COND, "add_scalar_loop_dyn_axis_dyn_loop_cond_kernel", rows={0: 1, 31: 2})

LOOP = "examples/02_intermediate/controlflow/loop/loop.py"


@case(LOOP, "loop_basic_kernel")
def _(r):
    t0, t1 = r.randn(512, 64, dtype=F16), r.randn(512, 64, dtype=F16)
    want = (t0.float() + t1.float()).half()
    return [Run({"t0": t0, "t1": t1}, {"out0": want, "out1": want}, params={"s": 64, "n": 8}, tol=(0.0, 1e-2))]


@case(LOOP, "loop_compile_phase_print_kernel")
def _(r):
    a, b = r.randn(6, 8, dtype=F16), r.randn(6, 8, dtype=F16)
    return [
        Run(
            {"in_t0": a, "in_t1": b},
            {"out_t0": (a.float() * 2).half(), "out_t1": (b.float() * 2).half()},
            tol=(0.0, 1e-2),
        )
    ]


def _add_val_case(kernel):
    @case(LOOP, kernel)
    def _(r):
        x, y = r.rand(32, 32, 1, 256), r.rand(32, 32, 1, 256)
        return [Run({"input0": x, "input1": y}, {"output": x + y + 1}, params={"val": 1}, tol=(3e-3, 3e-3))]


_add_val_case("add_kernel")
_add_val_case("add_scalar_loop_dynamic_axis_kernel")


# ---- examples/03_advanced ---------------------------------------------------------------------


@case("examples/03_advanced/aclgraph/aclgraph.py", "softmax_kernel")
def _(r):
    # The example runs this kernel inside torch.compile + NPUGraph capture (NPU only); the kernel
    # itself is a softmax over the last dim, checked with 3e-3.
    x = r.rand(32, 32, 1, 256)
    return [Run({"input_tensor": x}, {"output_tensor": torch.softmax(x, -1)}, tol=(3e-3, 3e-3))]


ATTN = "examples/03_advanced/advanced_nn/attention/attention.py"


@case(ATTN, "scaled_dot_product_attention_kernel")
def _(r):
    # The example computes torch.allclose(out, golden, 3e-3, 3e-3) but does not assert it. The
    # reference rounds to bf16 where the kernel does (each matmul's out_dtype, the scaled scores,
    # softmax's result); the tolerance is bf16's (2^-6, two units in the last place).
    q, k, v = (r.randn(2, 8, 16, 64, dtype=BF16) for _ in range(3))
    scores = mm(q, k.transpose(2, 3), BF16)
    weights = softmax32((scores.float() * 0.125).to(BF16)).to(BF16)
    return [Run({"q": q, "k": k, "v": v}, {"output": mm(weights, v, BF16)}, tol=(2**-6, 2**-6))]


@case(ATTN, "attention_with_projection_kernel")
def _(r):
    # As above (not asserted by the example). The weights are scaled by 1/sqrt(512) so that the
    # bf16 softmax is not saturated and the comparison is well-conditioned.
    h = r.randn(2, 32, 512, dtype=BF16)
    wq, wk, wv, wo = ((r.randn(1, 512, 512) / math.sqrt(512)).to(BF16) for _ in range(4))

    def heads(t):
        return t.reshape(2, 32, 8, 64).transpose(1, 2)

    q, k, v = heads(mm(h, wq, BF16)), heads(mm(h, wk, BF16)), heads(mm(h, wv, BF16))
    weights = softmax32((mm(q, k.transpose(2, 3), BF16).float() * 0.125).to(BF16)).to(BF16)
    ctx = mm(weights, v, BF16).transpose(1, 2).reshape(2, 32, 512)
    return [
        Run(
            {"hidden_states": h, "q_weight": wq, "k_weight": wk, "v_weight": wv, "out_weight": wo},
            {"output_tensor": mm(ctx, wo, BF16)},
            tol=(2**-6, 2**-6),
        )
    ]


@case("examples/03_advanced/cost_model/cost_model.py", "softmax")
def _(r):
    # The example checks that PyPTO's cost model wrote its swimlane JSON; the kernel computes
    # torch.softmax(x, dim=3), checked here with the softmax tolerance.
    x = r.rand(32, 32, 1, 256)
    return [Run({"input_tensor": x}, {"output_tensor": torch.softmax(x, 3)}, tol=(3e-3, 3e-3))]


FUNC = "examples/03_advanced/patterns/function/function.py"


@case(FUNC, "layer_norm_kernel")
def _(r):
    # test_function_reuse: the same kernel on three inputs
    gamma, beta = torch.ones(128, dtype=BF16), torch.zeros(128, dtype=BF16)
    runs = []
    for _n in range(3):
        x = r.randn(32, 128, dtype=BF16)
        runs.append(
            Run({"x": x, "gamma": gamma, "beta": beta}, {"out": layer_norm_ref(x, gamma, beta)}, tol=(0.0, 0.1))
        )
    return runs


@case(FUNC, "linear_projection_kernel")
def _(r):
    # test_transformer_block's projections (not asserted there); bf16 tolerance.
    runs = []
    for m, k, n in [(32, 128, 256), (32, 256, 128)]:
        x, w = r.randn(m, k, dtype=BF16), r.randn(k, n, dtype=BF16)
        runs.append(Run({"x": x, "weight": w}, {"out": mm(x, w, BF16)}, tol=(2**-6, 2**-6)))
    return runs


@case(FUNC, "gelu_activation_kernel")
def _(r):
    runs = []
    for n in (128, 256):
        x = r.randn(32, n, dtype=BF16)
        runs.append(Run({"x": x}, {"out": F.gelu(x.float()).to(BF16)}, tol=(0.0, 0.1)))
    return runs


@case(FUNC, "residual_add_kernel")
def _(r):
    x, res = r.randn(32, 128, dtype=BF16), r.randn(32, 128, dtype=BF16)
    return [Run({"x": x, "residual": res}, {"out": (x.float() + res.float()).to(BF16)}, tol=(0.0, 1e-2))]


@case(FUNC, "attention_kernel")
def _(r):
    q, k, v = (r.randn(1, 2, 16, 64) for _ in range(3))
    run = Run({"q": q, "k": k, "v": v}, {"out": torch.zeros(1, 2, 16, 64)})
    return ExpectError(
        r"transpose\(\) missing 1 required positional argument: .dim1.",
        167,
        "the example never calls it, and it cannot run in PyPTO: line 167 calls "
        "pypto.transpose(k, [0, 1, 3, 2]), but PyPTO's transpose(input, dim0, dim1) takes two int dims",
        run,
    )


@case("examples/03_advanced/patterns/function/multi_jit.py", "add_kernel")
def _(r):
    x, y = r.rand(32, 32, 1, 256), r.rand(32, 32, 1, 256)
    return [
        Run({"input0": x, "input1": y}, {"out": x + y}, params={"add1_flag": False}, tol=(3e-3, 3e-3)),
        Run({"input0": x, "input1": y}, {"out": x + y + 1}, params={"add1_flag": True}, tol=(3e-3, 3e-3)),
    ]


# The cases of the other kernels this runner runs, registered in CASES like the ones above.
sys.modules.setdefault("run_pypto_examples", sys.modules[__name__])  # one CASES when run as a script
import pypto_local_cases  # noqa: E402,F401  the kernels written here, in PyPTO's style
import pypto_test_cases  # noqa: E402,F401  kernels of PyPTO's python/tests and models

# ----------------------------------------------------------------------------------------------
# Finding the kernels
# ----------------------------------------------------------------------------------------------


def _is_jit(decorator):
    node = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(node, ast.Attribute):
        return node.attr == "jit"
    return isinstance(node, ast.Name) and node.id == "jit"


def kernel_text(path):
    """The file's text; a New Operator template (resources/templates) filled in as the wizard fills
    it, with its folder's name as the op's."""
    text = Path(path).read_text(encoding="utf-8")
    if "@NAME@" in text:
        name = Path(path).parent.name
        op_type = "".join(part.capitalize() for part in name.split("_"))
        text = text.replace("@NAME@", name).replace("@OP_TYPE@", op_type).replace("@NAMESPACE@", "pto")
    return text


def find_kernels(root, paths):
    """(path relative to root, kernel name, line) for every @jit function in the files and folders
    `paths` name (relative to root)."""
    files = []
    for rel in paths:
        path = root / rel
        if not path.exists():
            raise SystemExit(f"{path} does not exist")
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    kernels = []
    for path in sorted(set(files)):
        rel = path.relative_to(root).as_posix()
        try:
            tree = ast.parse(kernel_text(path), str(path))
        except SyntaxError as exc:
            kernels.append((rel, f"<syntax error: {exc}>", 0))
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                _is_jit(d) for d in node.decorator_list
            ):
                kernels.append((rel, node.name, node.lineno))
    return sorted(kernels, key=lambda k: (k[0], k[2]))


# ----------------------------------------------------------------------------------------------
# The worker
# ----------------------------------------------------------------------------------------------


class WorkerDied(Exception):
    pass


class Worker:
    def __init__(self, exe, scratch, python=None):
        self.exe, self.scratch, self.python = exe, scratch, python
        self.proc = None
        self.count = 0

    def _start(self):
        self.count += 1
        self.stderr_path = self.scratch / f"worker{self.count}.stderr"
        self.stderr = open(self.stderr_path, "wb")
        args = [str(self.exe)] + (["--python", self.python] if self.python else [])
        try:
            with open("/proc/meminfo") as f:
                total_kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
            args += ["--memory-limit-mb", str(total_kb // 1024 // 2)]  # as the app runs it
        except (OSError, AttributeError):
            pass
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        self.buffer = b""

    def _stderr_tail(self):
        try:
            return self.stderr_path.read_text(errors="replace").strip()[-600:]
        except OSError:
            return ""

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()
        self.proc = None

    def request(self, payload, timeout):
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write((json.dumps(payload) + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            return self._died("the worker's stdin closed")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_line(deadline, timeout)
            # The worker greets first: progress while it is built for a new interpreter, then ready.
            if answer.get("status") not in ("progress", "ready"):
                return answer

    def _read_line(self, deadline, timeout):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.proc.kill()  # the worker this script started
                self.proc.wait()
                self.stderr.close()
                self.proc = None
                raise WorkerDied(f"no answer within {timeout:.0f} s (the worker was stopped)")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return self._died("the worker exited")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line.decode("utf-8", "replace"))

    def _died(self, what):
        code = self.proc.wait()
        tail = self._stderr_tail()
        self.stderr.close()
        self.proc = None
        raise WorkerDied(f"{what} (exit status {code}){': ' + tail if tail else ''}")


# ----------------------------------------------------------------------------------------------
# Running one kernel
# ----------------------------------------------------------------------------------------------

WRAPPER = '''"""Generated by tests/tools/run_pypto_examples.py: exposes the kernel {kernel!r} of
{example} as the example builds it; the example file itself runs unmodified."""
import importlib.util as _util
import inspect as _inspect
import os as _os
import sys as _sys
import traceback as _traceback

_PATH = {path!r}


def _report():
    print({mark!r} + "\\n" + _traceback.format_exc(), file=_sys.stderr)


_sys.dont_write_bytecode = True  # the worker runs Python with -E: no __pycache__ beside the file

try:
    if _os.path.dirname(_PATH) not in _sys.path:
        _sys.path.insert(0, _os.path.dirname(_PATH))
    _spec = _util.spec_from_file_location({module!r}, _PATH)
    _ex = _util.module_from_spec(_spec)
    _sys.modules[_spec.name] = _ex
    _spec.loader.exec_module(_ex)
{setup}
except BaseException:
    _report()
    raise


def _unwrapped(fn):
    while hasattr(fn, "fn") and callable(fn.fn):
        fn = fn.fn
    return _inspect.unwrap(fn)


def {kernel}(**kwargs):
    try:
        _target(**kwargs, **_bound)
    except BaseException:
        _report()
        raise


_signature = _inspect.signature(_unwrapped(_target))
{kernel}.__signature__ = _signature.replace(
    parameters=[p for p in _signature.parameters.values() if p.name not in _bound])
'''


def to_npy(tensor):
    t = tensor.detach().contiguous()
    if t.dtype == BF16:
        return t.view(torch.int16).numpy().view("<u2")
    return t.numpy()


def from_npy(array, dtype):
    if dtype == BF16:
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16).copy()).view(BF16)
    return torch.from_numpy(np.array(array))


def compare(name, got, want, rtol, atol):
    if list(got.shape) != list(want.shape):
        return f"output '{name}' has shape {list(got.shape)}, expected {list(want.shape)}"
    if got.dtype != want.dtype:
        return f"output '{name}' has dtype {got.dtype}, expected {want.dtype}"
    g, w = got.double(), want.double()
    if not want.dtype.is_floating_point:
        bad = g != w
    else:
        close = (g - w).abs() <= atol + rtol * w.abs()
        close |= torch.isnan(g) & torch.isnan(w)
        bad = ~close
    if not bool(bad.any()):
        return None
    count, total = int(bad.sum()), bad.numel()
    idx = tuple(int(i) for i in bad.nonzero()[0])
    finite = bad & torch.isfinite(g) & torch.isfinite(w)
    worst = f", max |diff| {float((g - w).abs()[finite].max()):.4g}" if bool(finite.any()) else ""
    unwritten = int((torch.isnan(g) & ~torch.isnan(w)).sum()) if want.dtype.is_floating_point else 0
    note = f", {unwritten} never written (NaN)" if unwritten else ""
    return (
        f"output '{name}': {count}/{total} elements outside rtol={rtol:g}, atol={atol:g}{worst}{note}; "
        f"first at {list(idx)}: got {float(g[idx]):.6g}, expected {float(w[idx]):.6g}"
    )


def source_line(path, line):
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return ""


def example_frame(log, example):
    """The innermost frame in the example file of a traceback a wrapper printed to the log."""
    if TRACE_MARK not in log:
        return None
    text = log[log.rindex(TRACE_MARK) :]
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', text)
    for file, line, fn in reversed(frames):
        if os.path.abspath(file) == os.path.abspath(example):
            return int(line), fn
    return None


def error_text(answer, example, rel, via_wrapper):
    message = answer.get("message", "").strip() or "(no message)"
    line = answer.get("line")
    col = answer.get("col")
    where = None
    if via_wrapper:
        frame = example_frame(answer.get("log", ""), example)
        if frame:
            line, col = frame[0], None
            where = line
    else:
        where = line
    if where:
        code = source_line(example, where)
        loc = f"{rel}:{where}" + (f":{col}" if col else "")
        return message, where, f"{message} [worker, at {loc}: `{code}`]"
    return message, None, f"{message} [worker, code {answer.get('code', '?')}]"


# What a kernel that did not pass is, besides a failure of the workbench:
UNSUPPORTED = "UNSUPPORTED"  # needs what the simulator reports as not supported, or PyPTO's internals
UNAVAILABLE = "UNAVAILABLE"  # needs a module or a torch this machine lacks
LOADED = "LOADED"  # no case here: only imported, and the kernel found


def classify_error(message):
    """(UNSUPPORTED or UNAVAILABLE, reason) for errors that are not the workbench's failures, else None."""
    m = re.search(r"not supported by the simulator: (.*)", message)
    if m:
        return UNSUPPORTED, f"needs {m.group(1).strip()}, which the simulator reports as not supported"
    if re.search(r"cannot import name 'pypto_impl' from 'pypto'", message):
        return UNSUPPORTED, "imports pypto.pypto_impl, PyPTO's native module, which the workbench does not simulate"
    if "attempted relative import with no known parent package" in message:
        return UNSUPPORTED, (
            "imports relative to its package; the workbench imports a kernel file on its own, "
            "as it imports a project's kernel.py"
        )
    if re.search(r"(No module named|from) 'pypto_pro\b", message):
        return (
            UNAVAILABLE,
            "uses pypto_pro, a separate package of PyPTO's repository that the workbench does not provide",
        )
    m = re.search(r"(?:ModuleNotFoundError|ImportError): No module named '([^']+)'", message)
    if m and not m.group(1).split(".")[0] == "pypto":
        return (
            UNAVAILABLE,
            f"this machine's Python environment lacks the module '{m.group(1)}' (torch {torch.__version__})",
        )
    m = re.search(r"AttributeError: module 'torch' has no attribute '([^']+)'", message)
    if m:
        return UNAVAILABLE, f"this machine's torch ({torch.__version__}) has no torch.{m.group(1)}"
    return None


class Runner:
    def __init__(self, root, worker, scratch, timeout):
        self.root, self.worker, self.scratch, self.timeout = root, worker, scratch, timeout
        self.n = 0
        self.folder = None

    def _request(self, example, request):
        # A fresh worker per folder: files of unrelated folders may share module names (common.py).
        folder = os.path.dirname(example)
        if folder != self.folder:
            self.worker.stop()
            self.folder = folder
        return self.worker.request(request, self.timeout)

    def load(self, rel, kernel):
        """(LOADED, reason) when the file imports and defines the kernel, else a classified error or ('FAIL', reason):
        the check of a kernel without a case."""
        self.n += 1
        example = str(self.root / rel)
        case_dir = self.scratch / "cases" / f"{self.n:04d}"
        (case_dir / "inputs").mkdir(parents=True)
        request = {
            "op": "run",
            "case_dir": str(case_dir),
            "kernel_file": example,
            "source": kernel_text(example),
            "function": kernel,
            "inputs": [],
            "outputs": [],
            "params": {},
            "capture": False,
        }
        try:
            answer = self._request(example, request)
        except WorkerDied as exc:
            return "FAIL", f"worker: {exc}"
        code = answer.get("code", "")
        if answer.get("status") == "ok" or code == "kernel.bind":
            return LOADED, "no case here; the file imports and defines the kernel"
        if code == "kernel.missing-function":
            return LOADED, "no case here; the file imports (the kernel is made inside a function)"
        message, _line, text = error_text(answer, example, rel, False)
        return classify_error(message) or ("FAIL", f"the file does not import: {text}")

    def run(self, rel, kernel, run):
        """None when the outputs match, else (kind, reason) with kind 'fail' (or 'error' text for ExpectError)."""
        self.n += 1
        example = str(self.root / rel)
        case_dir = self.scratch / "cases" / f"{self.n:04d}"
        (case_dir / "inputs").mkdir(parents=True)
        for name, tensor in run.inputs.items():
            np.save(case_dir / "inputs" / f"{name}.npy", to_npy(tensor))
        if run.setup is None:
            kernel_file, source = example, kernel_text(example)
        else:
            setup = "\n".join("    " + line for line in run.setup.strip().splitlines())
            source = WRAPPER.format(
                kernel=kernel,
                example=rel,
                path=example,
                mark=TRACE_MARK,
                module=f"_ptowb_example_{self.n}",
                setup=setup,
            )
            wrappers = self.scratch / "wrappers"
            wrappers.mkdir(exist_ok=True)
            kernel_file = str(wrappers / f"wrap_{self.n:04d}_{kernel}.py")
            Path(kernel_file).write_text(source, encoding="utf-8")
        outputs = []
        for name, want in run.expected.items():
            entry = {"name": name, "shape": list(want.shape), "dtype": DTYPE_NAMES[want.dtype]}
            if name in run.init:
                entry["init"] = run.init[name]
            outputs.append(entry)
        request = {
            "op": "run",
            "case_dir": str(case_dir),
            "kernel_file": kernel_file,
            "source": source,
            "function": kernel,
            "inputs": list(run.inputs),
            "outputs": outputs,
            "mutated": list(run.mutated),
            "params": run.params,
            "capture": False,
        }
        try:
            answer = self._request(example, request)
        except WorkerDied as exc:
            what = f" (request: function {kernel!r}, inputs {list(run.inputs)}, params {json.dumps(run.params)})"
            return "fail", f"worker: {exc}{what}", None
        if answer.get("status") != "ok":
            message, line, text = error_text(answer, example, rel, run.setup is not None)
            return "error", text, (message, line)
        problems = []
        for name, want in list(run.expected.items()) + list(run.mutated.items()):
            path = case_dir / "outputs" / f"{name}.npy"
            if not path.exists():
                problems.append(f"output '{name}' was not written")
                continue
            got = from_npy(np.load(path), want.dtype)
            problem = compare(name, got, want, run.rtol, run.atol)
            if problem:
                problems.append(problem)
        if problems:
            return "fail", "; ".join(problems), None
        return None


def run_kernel(runner, rel, kernel, spec_fn):
    """(status, reason): PASS, FAIL, UNSUPPORTED, UNAVAILABLE, or LOADED for a kernel without a case."""
    if spec_fn is None:
        return runner.load(rel, kernel)
    seed = zlib.crc32(f"{rel}::{kernel}".encode())
    spec = spec_fn(Rand(seed))
    if isinstance(spec, ExpectError):
        result = runner.run(rel, kernel, spec.run)
        if result and result[0] == "error":
            message, line = result[2]
            if re.search(spec.pattern, message) and line == spec.line:
                return "PASS", None
            return (
                "FAIL",
                f"expected an error at line {spec.line} matching /{spec.pattern}/ ({spec.why}); got: {result[1]}",
            )
        if result is None or result[0] == "fail" and not result[1].startswith("worker:"):
            return "FAIL", f"ran without the error PyPTO raises: {spec.why}"
        return "FAIL", result[1]
    for k, run in enumerate(spec):
        result = runner.run(rel, kernel, run)
        if result is None:
            continue
        kind, reason = result[0], result[1]
        label = f" (run {k + 1}/{len(spec)}{': ' + run.label if run.label else ''})" if len(spec) > 1 else ""
        if kind == "error":
            classified = classify_error(result[2][0])
            if classified:
                return classified[0], f"{classified[1]}{label}: {reason}"
        return "FAIL", f"{reason}{label}"
    return "PASS", None


# ----------------------------------------------------------------------------------------------

UPSTREAM = ["examples", "python/tests", "models"]
SUMMARY = [
    ("PASS", "passed"),
    ("FAIL", "failed"),
    (UNSUPPORTED, "not supported by the simulator"),
    (UNAVAILABLE, "need what this machine lacks"),
    (LOADED, "only loaded (no case here)"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help=f"files and folders of kernels, relative to the root (default: {' '.join(UPSTREAM)})",
    )
    parser.add_argument(
        "--root",
        default=os.environ.get("PYPTO_EXAMPLES", ""),
        help="the folder the paths are in (default: $PYPTO_EXAMPLES, a checkout of hicann/pypto)",
    )
    parser.add_argument(
        "--worker",
        default=DEFAULT_WORKER,
        help=f"the kernel worker (default: {DEFAULT_WORKER}, relative to the repository root)",
    )
    # The goldens are computed here: the kernels run in this same interpreter by default, so both
    # sides use one torch (two torches' float kernels differ in the last bit).
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the Python interpreter to run the kernels in (default: the one running this script)",
    )
    parser.add_argument("-k", "--filter", default="", help="run only kernels whose 'file::kernel' contains this text")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for one answer of the worker")
    parser.add_argument(
        "--all-must-pass",
        action="store_true",
        help="anything but PASS fails, a kernel without a case included (for the kernels written here)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the scratch folder (case folders, generated wrappers)"
    )
    args = parser.parse_args()

    if not args.root:
        # No checkout is not a pass: exit status 77 is CTest's skip (tests/CMakeLists.txt).
        print(
            "SKIP all PyPTO kernels: no checkout of hicann/pypto is named (PYPTO_EXAMPLES, read when CMake "
            "configures for CTest, or --root)"
        )
        return 77
    root = Path(args.root).resolve()
    paths = args.paths or UPSTREAM
    if not args.paths and not (root / "examples").is_dir():
        print(f"{root} has no examples/ folder: it is not a checkout of hicann/pypto", file=sys.stderr)
        return 1
    worker_exe = Path(args.worker)
    if not worker_exe.is_absolute():
        # the default is relative to the repository root; a path given on the command line, to the current folder
        worker_exe = (REPO_ROOT if args.worker == DEFAULT_WORKER else Path.cwd()) / worker_exe
    if not os.access(worker_exe, os.X_OK):
        print(
            f"the kernel worker {worker_exe} is missing or not executable (build the project, or pass --worker)",
            file=sys.stderr,
        )
        return 1

    kernels = find_kernels(root, paths)
    known = {(rel, name) for rel, name, _ in kernels}
    for key in sorted(set(CASES) - known):
        if any(key[0] == p or key[0].startswith(p.rstrip("/") + "/") for p in paths):
            print(
                f"note: the script has a case for {key[0]}::{key[1]}, which the files no longer define", file=sys.stderr
            )

    scratch = Path(tempfile.mkdtemp(prefix="ptowb-pypto-examples-"))
    worker = Worker(worker_exe, scratch, args.python)
    runner = Runner(root, worker, scratch, args.timeout)
    counts = {status: 0 for status, _ in SUMMARY}
    try:
        for rel, name, _line in kernels:
            key = f"{rel}::{name}"
            if args.filter and args.filter not in key:
                continue
            spec_fn = CASES.get((rel, name))
            try:
                status, reason = run_kernel(runner, rel, name, spec_fn)
            except Exception as exc:  # a bug of this script for this kernel: report it, go on
                status, reason = "FAIL", f"the test script failed: {type(exc).__name__}: {exc}"
            if args.all_must_pass and status != "PASS":
                status, reason = "FAIL", f"{status}: {reason}"
            counts[status] += 1
            print(f"{status} {key}" + (f": {reason}" if reason else ""), flush=True)
    finally:
        worker.stop()
        if args.keep:
            print(f"scratch folder kept: {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(", ".join(f"{counts[status]} {what}" for status, what in SUMMARY) + f" (torch {torch.__version__})")
    return 1 if counts["FAIL"] or not sum(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
