"""Cases for the kernels written here in PyPTO's style, for run_pypto_examples.py: the samples in
projects/, the New Operator templates, and the kernels of tests/data. CTest runs them through the
same runner as PyPTO's own examples (pypto_style_kernels), so the runner is exercised on every
machine, PyPTO's repository or not. Paths are relative to the workbench's source folder; the
references are torch, written from each kernel's docstring and its op.json's reference.py.
"""
import torch
import torch.nn.functional as F

from run_pypto_examples import BF16, F16, F32, Run, bound, case, mm

# ---- projects/ and resources/templates/ --------------------------------------------------------


@case("projects/scale_gelu/kernel.py", "scale_gelu_kernel")
def _(r):
    def run(rows, cols, channels, scale, dtype, tol):
        x = r.randn(rows, cols, dtype=dtype)
        want = (F.gelu(x.float(), approximate="tanh")[:, :channels] * scale).to(dtype)
        return Run({"x": x}, {"y": want}, params={"scale": scale, "channels": channels}, tol=tol)

    return [run(4, 64, 32, 0.5, F16, (3e-3, 3e-3)), run(16, 256, 256, 1.5, F32, (1e-5, 1e-5))]


@case("projects/softmax/kernel.py", "softmax_kernel")
def _(r):
    x32, x16 = r.randn(8, 256) * 2, (r.rand(32, 128) * 16 - 8).half()
    return [
        Run({"x": x32}, {"y": torch.softmax(x32, -1)}, tol=(1e-5, 1e-6)),
        Run({"x": x16}, {"y": torch.softmax(x16.float(), -1).half()}, tol=(3e-3, 3e-3)),
    ]


@case("projects/matmul_bias/kernel.py", "matmul_bias_kernel")
def _(r):
    a, b, bias = r.rand(64, 64, dtype=F16) * 2 - 1, r.rand(64, 64, dtype=F16) * 2 - 1, r.randn(64)
    at, bt = (r.randn(32, 128) * 0.5).half(), (r.randn(96, 128) * 0.5).half()
    return [
        Run({"a": a, "b": b, "bias": bias}, {"y": mm(a, b, F32) + bias}, params={"trans_b": False}, tol=(1e-5, 1e-5)),
        Run(
            {"a": at, "b": bt, "bias": torch.zeros(96)},
            {"y": mm(at, bt.t(), F32)},
            params={"trans_b": True},
            tol=(1e-5, 1e-5),
        ),
    ]


# The templates hold @NAME@ where the wizard puts the op's name: the runner fills in the folder's.


@case("resources/templates/elementwise/kernel.py", "elementwise_kernel")
def _(r):
    x32, x16 = r.randn(8, 128) * 2, (r.rand(4, 256) * 8 - 4).half()
    return [
        Run({"x": x32}, {"y": torch.sigmoid(x32) * 0.5}, params={"alpha": 0.5}, tol=(1e-5, 1e-6)),
        Run({"x": x16}, {"y": torch.sigmoid(x16.float()).half()}, params={"alpha": 1.0}, tol=(3e-3, 3e-3)),
    ]


@case("resources/templates/matmul/kernel.py", "matmul_kernel")
def _(r):
    a, b = r.randn(64, 64, dtype=F16), r.randn(64, 64, dtype=F16)
    ta, tb = r.rand(96, 32, dtype=BF16) * 2 - 1, r.rand(32, 48, dtype=BF16) * 2 - 1
    return [
        Run({"a": a, "b": b}, {"y": mm(a, b, F32)}, tol=(1e-5, 1e-5)),
        Run({"a": ta, "b": tb}, {"y": mm(ta, tb, F32)}, tol=(1e-5, 1e-5)),
    ]


@case("resources/templates/reduction/kernel.py", "reduction_kernel")
def _(r):
    x32, x16 = r.randn(16, 256), r.rand(8, 128, dtype=F16)
    return [
        Run({"x": x32}, {"y": x32.sum(-1, keepdim=True)}, tol=(1e-5, 1e-5)),
        Run({"x": x16}, {"y": x16.float().sum(-1, keepdim=True).half()}, tol=(3e-3, 3e-2)),
    ]


# ---- tests/data: kernels with an op.json -------------------------------------------------------


@case("tests/data/config_kernel/kernel.py", "layer_norm_kernel")
def _(r):
    def run(rows, cols, eps, dtype, pdtype, tol):
        x, gamma = r.randn(rows, cols, dtype=dtype), r.randn(cols, dtype=dtype)
        xf = x.float()
        want = (
            (xf - xf.mean(-1, keepdim=True))
            * torch.rsqrt(xf.var(-1, unbiased=False, keepdim=True) + eps)
            * gamma.float()
        ).to(dtype)
        config = f"_ex.NormConfig(eps={eps!r}, dtype=_ex.pypto.{pdtype}, tile_rows={min(4, rows)})"
        return Run(
            {"x": x, "gamma": gamma},
            {"y": want},
            params={"NUM_COLS": cols, "AFFINE": [[1.0, 0.0]]},
            tol=tol,
            setup=bound("layer_norm_kernel", config=config),
        )

    return [run(10, 64, 1e-5, F32, "DT_FP32", (1e-4, 1e-4)), run(3, 32, 1e-3, F16, "DT_FP16", (2e-3, 2e-3))]


@case("tests/data/mutated_kernel/kernel.py", "accumulate_kernel")
def _(r):
    x, acc = r.randn(4, 32), torch.ones(4, 32)
    return [Run({"x": x, "acc": acc}, {"y": x * 0.5}, params={"scale": 0.5}, tol=(1e-6, 1e-6))]


@case("tests/data/inplace_kernel/kernel.py", "add_into_kernel")
def _(r):
    x, acc = r.randn(4, 32), torch.ones(4, 32)
    return [Run({"x": x, "acc": acc}, {}, params={"scale": 0.5}, tol=(1e-6, 1e-6), mutated={"acc": acc + x * 0.5})]


@case("tests/data/no_input_kernel/kernel.py", "filled_rows_kernel")
def _(r):
    # Reads no tensor: out is made from the parameters alone.
    return [
        Run({}, {"out": torch.full([rows, 16], value)}, params={"rows": rows, "value": value}, tol=(0, 0))
        for rows, value in ((4, 1.0), (6, -2.5))
    ]


@case("tests/data/glue_hostile/kernel.py", "odd_kernel")
def _(r):
    # A stub for the glue's escaping: it writes y and leaves s as the case made it.
    x, w = r.randn(3, 8), r.rand(5) * 2 - 1
    return [Run({"x": x, "w": w}, {"y": x[:, :4], "s": torch.zeros(2)}, params={"n": 4}, tol=(0, 0), init={"s": 0})]


# ---- tests/data/sim_kernels: what tst_sim checks, through the runner --------------------------

SIM = "tests/data/sim_kernels/"


@case(SIM + "elementwise_chain.py", "kernel")
def _(r):
    x = r.randn(8, 32)
    return [Run({"x": x}, {"y": ((x.exp() * 2 + 1) - 0.5 * x) / 3}, tol=(1e-5, 1e-6))]


@case(SIM + "unary_ops.py", "kernel")
def _(r):
    x = r.rand(4, 16) * 6 - 3
    a = x.abs() + 0.5
    want = (
        (a.sqrt() + a.rsqrt() + a.reciprocal() + a.log())
        + (x.sigmoid() + x.tanh() + x.relu() - x)
        + (x.sin() + x.cos() + x.ceil() + x.floor() + x.round() + x.trunc())
    )
    return [Run({"x": x}, {"y": want}, tol=(1e-5, 1e-5))]


@case(SIM + "binary_ops.py", "kernel")
def _(r):
    a, b = r.randn(4, 16), r.randn(4, 16)
    want = (
        (torch.maximum(a, b) - torch.minimum(a, b))
        + 2 * (a * b + a / (b.abs() + 1))
        + ((a.abs() + 1) ** 2 + a**2)
        + a
    )
    return [Run({"a": a, "b": b}, {"y": want}, tol=(1e-5, 1e-5))]


@case(SIM + "compare_where.py", "kernel")
def _(r):
    x = r.randn(6, 10) * 2
    x[0, 0] = 0.5
    f = lambda b: b.float()  # noqa: E731
    want = (
        torch.where(x > 0, x, x * 0.1)
        + f(x <= -1)
        + 2 * f(x >= 1)
        + 4 * f(x == 0.5)
        + 8 * f(x != x)
        + 16 * f(x < -2)
        + 32 * f(x >= 2)
    )
    return [Run({"x": x}, {"y": want}, params={"slope": 0.1}, tol=(1e-6, 1e-6))]


@case(SIM + "reductions.py", "kernel")
def _(r):
    x = r.randn(16, 48)
    return [
        Run(
            {"x": x},
            {"row_sum": x.sum(-1, keepdim=True), "col_max": x.amax(0), "total_min": x.min().reshape(1, 1)},
            tol=(1e-5, 1e-5),
        )
    ]


@case(SIM + "softmax_builtin.py", "kernel")
def _(r):
    x = r.randn(5, 40, dtype=F16)
    return [Run({"x": x}, {"y": torch.softmax(x.float(), -1).half()}, tol=(1e-3, 1e-3))]


@case(SIM + "matmul_trans_a.py", "kernel")
def _(r):
    a, b = r.randn(32, 16, dtype=F16), r.randn(32, 24, dtype=F16)
    return [Run({"a": a, "b": b}, {"y": mm(a.t(), b, F32)}, tol=(1e-5, 1e-5))]


@case(SIM + "matmul_batched.py", "kernel")
def _(r):
    a, b = r.randn(2, 8, 16), r.randn(2, 12, 16)
    return [Run({"a": a, "b": b}, {"y": torch.matmul(a, b.transpose(1, 2)) * 0.5}, tol=(1e-5, 1e-5))]


@case(SIM + "cast_roundtrip.py", "kernel")
def _(r):
    x = r.randn(3, 7) * 100
    return [Run({"x": x}, {"y": x.half().float(), "h": (x.half().float() * 2).half()}, tol=(0, 0))]


@case(SIM + "tiled_rows.py", "kernel")
def _(r):
    x = r.randn(6, 32)
    row_start = (torch.arange(6) // 2 * 2).float().unsqueeze(1)
    return [Run({"x": x}, {"y": x * 2 + row_start}, params={"scale": 2.0}, tol=(1e-6, 1e-6))]


@case(SIM + "reshape_transpose.py", "kernel")
def _(r):
    x = r.randn(3, 16)
    return [Run({"x": x}, {"y": x.reshape(3, 4, 4).transpose(1, 2).reshape(3, 16)}, tol=(0, 0))]


@case(SIM + "gathermask_lanes.py", "kernel")
def _(r):
    x = r.randn(4, 32)
    return [Run({"x": x}, {"first": x[:, 0::2], "third": x[:, 2::4], "whole": x}, tol=(0, 0))]


@case(SIM + "full_concat.py", "kernel")
def _(r):
    x = r.randn(2, 5)
    return [Run({"x": x}, {"y": torch.cat([x, torch.full((2, 3), 1.5), x * 2], 1)}, tol=(0, 0))]


@case(SIM + "assemble_tiles.py", "kernel")
def _(r):
    x = r.randn(3, 8)
    return [Run({"x": x}, {"y": torch.cat([x[:, 4:].exp() - 1, x[:, :4].exp()], 1)}, tol=(1e-6, 1e-6))]


@case(SIM + "clip_ops.py", "kernel")
def _(r):
    x, lo = r.randn(4, 8), torch.full((4, 8), -0.2)
    want = torch.minimum(torch.maximum(x.clamp_min(-0.5), lo), torch.tensor(0.7))
    return [Run({"x": x, "lo": lo}, {"y": want}, params={"hi": 0.7}, tol=(0, 0))]


@case(SIM + "rms_norm_rows.py", "kernel")
def _(r):
    x, w = r.randn(4, 64), r.randn(64)
    want = x * torch.rsqrt((x * x).sum(-1, keepdim=True) / 64 + 1e-6) * w
    return [Run({"x": x, "w": w}, {"y": want}, params={"eps": 1e-6}, tol=(1e-5, 1e-5))]


@case(SIM + "control_flow.py", "kernel")
def _(r):
    x = r.randn(2, 3)
    return [
        Run({"x": x}, {"y": x * 3}, params={"mode": "add", "steps": 3}, tol=(1e-6, 1e-6), label="add"),
        Run(
            {"x": x},
            {"y": x * 0 + 4},
            params={"mode": "none", "steps": 9},
            tol=(1e-6, 1e-6),
            label="min(steps, 4) iterations",
        ),
    ]


# ---- tests/data/style_kernels: the styles real PyPTO files are written in ---------------------

STYLE = "tests/data/style_kernels/"


@case(STYLE + "module_constants.py", "kernel")
def _(r):
    x = r.randn(4, 64)
    return [Run({"x": x}, {"y": x * 0.5 + 1}, tol=(1e-6, 1e-6))]


@case(STYLE + "helpers_and_config.py", "kernel")
def _(r):
    x, w = r.randn(4, 64), r.randn(64)
    return [
        Run({"x": x, "w": w}, {"y": x * torch.rsqrt((x * x).sum(-1, keepdim=True) / 64 + 1e-6) * w}, tol=(1e-5, 1e-5))
    ]


@case(STYLE + "factory_closure.py", "kernel")
def _(r):
    x = r.randn(4, 64)
    return [Run({"x": x}, {"y": x * 3 - 1}, tol=(1e-6, 1e-6))]


@case(STYLE + "loop_unroll_tail.py", "kernel")
def _(r):
    x = r.randn(7, 32)
    return [Run({"x": x}, {"y": torch.cat([x[:6].exp(), -x[6:]])}, tol=(1e-6, 1e-6))]


@case(STYLE + "dynamic_valid_shape.py", "kernel")
def _(r):
    x = r.randn(8, 16)
    return [Run({"x": x}, {"y": x * 2}, tol=(0, 0))]


@case(STYLE + "multi_output_bf16.py", "kernel")
def _(r):
    x = r.randn(3, 32, dtype=BF16)
    return [
        Run(
            {"x": x},
            {"doubled": (x.float() * 2).bfloat16(), "row_sum": x.float().sum(-1, keepdim=True).bfloat16().float()},
            tol=(0, 0),
        )
    ]


@case(STYLE + "comprehensions_del_mod.py", "kernel")
def _(r):
    x = r.randn(2, 8) * 5
    return [
        Run(
            {"x": x},
            {"y": torch.remainder(torch.cat([x[:, 4:], x[:, :4]], 1), 3.0), "z": torch.floor(x / 2)},
            tol=(1e-5, 1e-5),
        )
    ]


@case(STYLE + "loop_markers_cond.py", "kernel")
def _(r):
    x = r.randn(4, 64)
    return [Run({"x": x}, {"y": x.sum(0, keepdim=True)}, tol=(1e-5, 1e-5))]


@case(STYLE + "print_assert_starargs.py", "kernel")
def _(r):
    x = r.randn(4, 64)
    return [Run({"x": x}, {"y": x.relu()}, tol=(0, 0))]


@case(STYLE + "matmul_bias.py", "kernel")
def _(r):
    a, b, bias = r.randn(8, 32), r.randn(16, 32), r.randn(1, 16)
    return [Run({"a": a, "b": b, "bias": bias}, {"y": torch.matmul(a, b.t()) + bias}, tol=(1e-5, 1e-5))]


@case(STYLE + "index_assign.py", "kernel")
def _(r):
    x = r.randn(4, 4)
    want = torch.zeros(4, 4)
    want[0, 1:3] = x[0, 0:2]
    want[3, 1:3] = x[1, 0:2]
    want[:, 3] = 7.0
    return [Run({"x": x}, {"y": want}, tol=(0, 0))]


# ---- tests/data/pypto_api/kernels: the ops PyPTO added upstream, with check_pypto_ops.py's cases


def _upstream_ops_cases():
    import check_pypto_ops  # noqa: E402  its cases, not its worker

    for function, (inputs, want, tol) in check_pypto_ops.expected_cases().items():
        case("tests/data/pypto_api/kernels/upstream_ops.py", function)(
            lambda r, inputs=inputs, want=want, tol=tol: [Run(inputs, want, tol=(tol, tol))]
        )


_upstream_ops_cases()
