#!/usr/bin/python3
"""Checks the kernel worker's CPU stand-in for torch_npu (core/worker/python/_ptowb_npu_standin.py)
in the interpreter that runs this script, with that interpreter's torch:

    tests/tools/check_npu_standin.py [SOURCE_DIR]

What PyPTO's examples, tests and models do with torch_npu at module level and in their host code
must act on the CPU; what has no CPU meaning must fail naming itself; and where a real torch_npu
is importable the stand-in must stay out of the way. Each case runs in a fresh interpreter, since
the stand-in changes torch for the process.
"""
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
WORKER_PYTHON = ROOT / "core" / "worker" / "python"

PRELUDE = f"""
import sys
sys.path.insert(0, {str(WORKER_PYTHON)!r})
import _ptowb_npu_standin
"""

CASES = {
    # Host code as PyPTO's tests write it: torch first, then torch_npu, devices by string.
    "devices": """
assert _ptowb_npu_standin.install()
import torch
import torch_npu
assert torch.npu.is_available() is False and torch.npu.device_count() == 0
torch.npu.set_device(1)
assert torch.npu.current_device() == 1 and torch_npu.npu.current_device() == 1
torch_npu.npu.set_device("npu:0")
torch.npu.synchronize()
torch_npu.npu.synchronize()
device = f"npu:{torch.npu.current_device()}"
made = [torch.empty(2, 3, device=device), torch.zeros(2, device="npu"), torch.ones(2, device=device),
        torch.rand(2, device=device), torch.randn(2, 2, device=device), torch.randint(0, 5, (3,), device=device),
        torch.full((2,), 3.0, device=device), torch.tensor([1, 2], device=device), torch.arange(4, device="npu"),
        torch.empty_like(torch.ones(2), device=device), torch.zeros(2).new_zeros(3, device=device)]
assert all(t.device.type == "cpu" for t in made), [t.device for t in made]
# A bare device index is the NPU's (the CPU here), as PyPTO's tests use it after set_device.
by_index = [torch.randn((2, 2), device=0), torch.zeros(2, device=torch.npu.current_device()), torch.ones(2).to(0)]
assert all(t.device.type == "cpu" for t in by_index), [t.device for t in by_index]
x = torch.randn(3)
assert x.to("npu").device.type == "cpu" and x.to(device, torch.float16).dtype == torch.float16
assert x.to(device=device).device.type == "cpu" and x.npu() is x and x.is_npu is False
assert x.to(torch.float16).dtype == torch.float16
model = torch.nn.Linear(2, 2).to("npu:0")
assert next(model.parameters()).device.type == "cpu" and model.npu() is model

# TorchScript still sees the wrapped factories as the aten ops they are.
import warnings
warnings.simplefilter("ignore")

@torch.jit.script
def scripted(n: int):
    return torch.zeros(n) + torch.ones(n)

assert scripted(3).tolist() == [1.0, 1.0, 1.0]
print("ok")
""",
    # torch_npu before torch, and the import forms PyPTO's files use.
    "imports": """
assert _ptowb_npu_standin.install()
import torch_npu
from torch_npu import npu
import torch_npu.npu
import torch
assert npu is torch.npu and torch_npu.npu is torch.npu
assert torch.zeros(1, device="npu").device.type == "cpu"
print("ok")
""",
    # torch imported before the stand-in is installed.
    "torch-first": """
import torch
assert _ptowb_npu_standin.install()
assert torch.npu.is_available() is False and torch.ones(1, device="npu:0").device.type == "cpu"
print("ok")
""",
    # What PyPTO's files call besides devices.
    # A tensor given an NPU format says it is on the NPU, as host code checks before asking for
    # the format (glm's get_format); what torch computes from it is a CPU tensor again.
    "format-device": """
assert _ptowb_npu_standin.install()
import torch
import torch_npu
a = torch.randn(4, 8)
nz = torch_npu.npu_format_cast(a, 29)
try:
    torch.device("npu")
except RuntimeError:  # torch 1.13 cannot name the device: the tensor stays a CPU tensor
    assert nz.device.type == "cpu"
else:
    assert nz.device.type == "npu" and nz.is_npu and torch_npu.get_npu_format(nz) == 29
    assert type(nz + 1) is torch.Tensor and (nz + 1).device.type == "cpu"
    assert nz.to(torch.float16).device.type == "cpu" and (nz.numpy() == a.numpy()).all()
assert a.device.type == "cpu" and torch.equal(nz * 1, a)
print("ok")
""",
    # Seeding the NPU seeds the CPU that stands in for it, and torch.manual_seed does not warn
    # that "npu" is left unseeded; topk(sorted=False) gives its elements sorted (an order it
    # allows) as host code written for the NPU compares them.
    "seeds-and-topk": """
assert _ptowb_npu_standin.install()
import warnings
warnings.simplefilter("error")
import torch
import torch_npu
torch.manual_seed(3)
a = torch.rand(3)
torch.npu.manual_seed(3)
b = torch.rand(3)
torch.manual_seed(3)
assert torch.equal(a, b) and torch.equal(a, torch.rand(3, device="npu"))
x = torch.rand(4, 160)
for top in (torch.topk(x, 8, dim=-1, sorted=False), x.topk(8, -1, True, False), torch.topk(x, 8, -1, True, False)):
    assert torch.equal(top.values, torch.topk(x, 8).values) and torch.equal(top.indices, torch.topk(x, 8).indices)
print("ok")
""",
    # torch_npu's quantization calls, as host code builds goldens with them.
    "quantization": """
assert _ptowb_npu_standin.install()
import torch
import torch_npu
x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 0.0, 0.0]], dtype=torch.bfloat16)
y, scale = torch_npu.npu_dynamic_quant(x)
assert y.dtype == torch.int8 and scale.dtype == torch.float32 and scale.shape == (2,)
assert torch.allclose(scale, torch.tensor([2.0 / 127, 0.0]))
assert y.tolist() == [[64, -127, 32], [0, 0, 0]], y  # 63.5 rounds to even
y, scale = torch_npu.npu_dynamic_quant(x, smooth_scales=torch.tensor([2.0, 1.0, 1.0], dtype=torch.bfloat16))
assert y[0].tolist() == [127, -127, 32] and torch.allclose(scale[0], torch.tensor(2.0 / 127))
q = torch_npu.npu_quantize(torch.tensor([[0.26, -3.0, 100.0]]), torch.tensor([10.0]), torch.tensor([1.0]),
                           torch.qint8, -1, False)
assert q.dtype == torch.int8 and q.tolist() == [[4, -29, 127]], q
q = torch_npu.npu_quantize(torch.tensor([[5.0, -5.0]]), torch.tensor([2.0, 4.0]), None, torch.quint8, -1)
assert q.dtype == torch.uint8 and q.tolist() == [[2, 0]], q
a = torch.tensor([[1, 2], [3, -4]], dtype=torch.int8)
b = torch.tensor([[5, 6, 7], [8, 9, 10]], dtype=torch.int8)
bias = torch.tensor([1, 0, -1], dtype=torch.int32)
out = torch_npu.npu_quant_matmul(a, torch_npu.npu_format_cast(b, 29), torch.tensor([0.5, 1.0, 2.0]),
                                 pertoken_scale=torch.tensor([1.0, 0.25]), bias=bias, output_dtype=torch.bfloat16)
exact = (torch.tensor([[21, 24, 27], [-17, -18, -19]]) + torch.tensor([1, 0, -1])) * torch.tensor([0.5, 1.0, 2.0])
assert out.dtype == torch.bfloat16 and torch.equal(out.float(), exact * torch.tensor([[1.0], [0.25]])), out
print("ok")
""",
    # A fused operator registered for the NPU (PrivateUse1; "NPU" where torch names the backend
    # npu) runs on the CPU tensors that stand in for npu ones; one the file gives a CPU
    # implementation of, before or after, runs that one.
    "library": """
assert _ptowb_npu_standin.install()
import torch
import torch_npu
lib = torch.library.Library("ptowb_check", "DEF")
for name in ("twice", "kept", "replaced", "composite", "renewed"):
    lib.define(f"{name}(Tensor x) -> Tensor")
lib.define("over.Tensor(Tensor x) -> Tensor")
npu_key = "NPU" if hasattr(torch.utils, "rename_privateuse1_backend") else "PrivateUse1"
torch.library.impl(lib, "twice", npu_key)(lambda x: x * 2)
torch.library.impl(lib, "kept", "CPU")(lambda x: x + 10)
torch.library.impl(lib, "kept", npu_key)(lambda x: x * 2)
torch.library.impl(lib, "replaced", "PrivateUse1")(lambda x: x * 2)
torch.library.impl(lib, "replaced", "CPU")(lambda x: x - 1)
torch.library.impl(lib, "over.Tensor", "PrivateUse1")(lambda x: x * 5)
# No key: the composite one, which the CPU then runs.
torch.library.impl(lib, "composite", "PrivateUse1")(lambda x: x * 2)
lib.impl("composite", lambda x: x * 7)
# A second NPU implementation (torch 2.x takes one; torch 1.13 refuses it) is the one that runs.
torch.library.impl(lib, "renewed", "PrivateUse1")(lambda x: x * 3)
if npu_key == "NPU":
    lib.impl("renewed", lambda x: x * 2, "PrivateUse1")
x = torch.ones(3, device="npu")
assert torch.equal(torch.ops.ptowb_check.twice(x), torch.full((3,), 2.0))
assert torch.equal(torch.ops.ptowb_check.kept(x), torch.full((3,), 11.0))
assert torch.equal(torch.ops.ptowb_check.replaced(x), torch.zeros(3))
assert torch.equal(torch.ops.ptowb_check.over.Tensor(x), torch.full((3,), 5.0))
assert torch.equal(torch.ops.ptowb_check.composite(x), torch.full((3,), 7.0))
assert torch.equal(torch.ops.ptowb_check.renewed(x), torch.full((3,), 2.0 if npu_key == "NPU" else 3.0))
print("ok")
""",
    "calls": """
assert _ptowb_npu_standin.install()
import torch
import torch_npu
a = torch.randn(4, 8)
nz = torch_npu.npu_format_cast(a, 29)
assert torch_npu.get_npu_format(nz) == torch_npu.Format.FRACTAL_NZ == 29 and torch_npu.get_npu_format(a) == 2
assert torch.equal(nz, a)
torch_npu.npu.config.allow_internal_format = True
assert torch_npu.npu_dtype_cast(a, torch.float16).dtype == torch.float16
y, rstd = torch_npu.npu_rms_norm(a, torch.ones(8))
assert torch.allclose(y, a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + 1e-6)) and rstd.shape == (4, 1)
assert torch.allclose(torch_npu.npu_swiglu(a), torch.nn.functional.silu(a[:, :4]) * a[:, 4:])
assert "CPU" in torch.npu.get_device_name() and not torch_npu.npu.is_current_stream_capturing()
stream = torch.npu.Stream()
with torch.npu.stream(stream):
    pass
torch.npu.current_stream().wait_stream(stream)
torch.npu.empty_cache()
start, end = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
start.record()
end.record()
assert start.elapsed_time(end) >= 0
level = torch_npu.profiler.ProfilerLevel.Level1  # module-level settings load
# A graph capture runs its work at once on the CPU; the first replay leaves the outputs as they are.
g, out = torch.npu.NPUGraph(), torch.zeros(4, 8)
with torch.npu.graph(g):
    assert torch_npu.npu.is_current_stream_capturing()
    out.copy_(a * 2)
assert not torch_npu.npu.is_current_stream_capturing()
g.replay()
assert torch.equal(out, a * 2)
try:
    g.replay()
except RuntimeError as exc:
    assert "replay() a second time is not available without an NPU" in str(exc), exc
else:
    raise AssertionError("a second replay did not fail")
failures = {
    "torch_npu.npu_fused_infer_attention_score": lambda: torch_npu.npu_fused_infer_attention_score(a),
    "torch_npu.npu.set_device_limit": lambda: torch.npu.set_device_limit(0, 8, 16),
    "torch_npu.npu_dtype_cast to or from torch_npu.hifloat8": lambda: torch_npu.npu_dtype_cast(a, torch_npu.hifloat8),
    "torch_npu.profiler.profile": lambda: torch_npu.profiler.profile(),
    "torch_npu.npu_quant_matmul to int8 (no output_dtype)": lambda: torch_npu.npu_quant_matmul(
        a.to(torch.int8), a.to(torch.int8).T, torch.ones(4)
    ),
    "torch_npu.npu_dynamic_quant with group_index": lambda: torch_npu.npu_dynamic_quant(a, group_index=a),
}
for name, call in failures.items():
    try:
        call()
    except RuntimeError as exc:
        assert str(exc).startswith(name + " is not available without an NPU"), exc
    else:
        raise AssertionError(name + " did not fail")
try:
    torch_npu.npu.no_such_thing
except AttributeError as exc:
    assert "torch_npu.npu.no_such_thing is not available without an NPU" in str(exc)
else:
    raise AssertionError("an unknown torch.npu name did not fail")
print("ok")
""",
}


def main():
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        real = pathlib.Path(scratch) / "real" / "torch_npu"
        real.mkdir(parents=True)
        (real / "__init__.py").write_text("REAL = True\n")
        cases = dict(CASES)
        # A real torch_npu is used untouched: nothing is installed, torch keeps its devices.
        cases[
            "real"
        ] = f"""
sys.path.insert(0, {str(real.parent)!r})
assert _ptowb_npu_standin.install() is False
import torch_npu
assert torch_npu.REAL
import torch
assert not hasattr(torch, "npu")
print("ok")
"""
        for name, body in cases.items():
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            script = pathlib.Path(scratch) / f"case_{name.replace('-', '_')}.py"  # TorchScript reads the source
            script.write_text(PRELUDE + body)
            done = subprocess.run(
                [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=scratch, timeout=600
            )
            ok = done.returncode == 0 and done.stdout.strip().endswith("ok")
            failed += not ok
            print(f"{'PASS' if ok else 'FAIL'} {name}")
            if not ok:
                print((done.stdout + done.stderr).strip()[-2000:])
    import torch

    print(
        f"{len(CASES) + 1 - failed} passed, {failed} failed "
        f"(python {sys.version.split()[0]}, torch {torch.__version__})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
