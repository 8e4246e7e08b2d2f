#!/usr/bin/python3
"""Runs the kernels of tests/data/pypto_api/kernels in the kernel worker and compares what they
write with torch: the ops and forms PyPTO added upstream (asin ... acosh, erf, isnan, interleave,
deinterleave, atomic_add, triu/tril, experimental.online_softmax(_update) and
transposed_batchmatmul, pack/unpack, Tensor's
sinh/cosh/asinh/acosh/erfc/copy/is_empty, pypto.jit, pypto.op, pypto.tensor, TensorAnnotation,
[DYNAMIC, ...] annotations), in a kernel file that imports torch_npu at module level and puts a
tensor on "npu:0" there, as PyPTO's tests do.

    tests/tools/check_pypto_ops.py WORKER [SOURCE_DIR]

WORKER is build/release/lib/ptowb/ptowb-kernel-worker; it runs in the interpreter the workbench
chooses (PTOWB_PYTHON picks another).
"""
import json
import os
import pathlib
import select
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else pathlib.Path(__file__).resolve().parents[2])
KERNEL = ROOT / "tests" / "data" / "pypto_api" / "kernels" / "upstream_ops.py"
NAMES = {torch.float32: "float32", torch.float16: "float16", torch.int32: "int32", torch.uint8: "uint8"}


class Worker:
    def __init__(self, exe):
        self.proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buffer = b""
        # The worker greets first: progress while it is built for a new interpreter, then ready.
        while True:
            line = self.line(1800)
            if line.get("status") != "progress":
                break
        if line.get("status") != "ready":
            raise RuntimeError(f"the worker did not start: {line}")
        self.description = line.get("description", "")

    def line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise RuntimeError(f"no answer from the worker within {timeout} s")
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError(f"the worker exited (status {self.proc.wait()})")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def run(self, case_dir, function, inputs, outputs):
        (case_dir / "inputs").mkdir(parents=True)
        for name, tensor in inputs.items():
            np.save(case_dir / "inputs" / f"{name}.npy", tensor.numpy())
        request = {
            "op": "run",
            "case_dir": str(case_dir),
            "kernel_file": str(KERNEL),
            "source": KERNEL.read_text(),
            "function": function,
            "inputs": list(inputs),
            "params": {},
            "capture": False,
            "outputs": [{"name": n, "shape": list(t.shape), "dtype": NAMES[t.dtype]} for n, t in outputs.items()],
        }
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        answer = self.line(600)
        if answer.get("status") != "ok":
            return answer, None
        return answer, {n: torch.from_numpy(np.load(case_dir / "outputs" / f"{n}.npy")) for n in outputs}

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def expected_cases():
    g = torch.Generator().manual_seed(20)
    a, b = torch.randn(4, 16, generator=g), torch.randn(4, 16, generator=g)
    w = torch.randn(8, 16, generator=g)
    x = a.clamp(-0.9, 0.9)
    cases = {}
    cases["elementwise"] = (
        {"a": a, "b": b},
        {
            "y": x.asin() + x.acos() + x.tan() + x.erf() + x.erfc() + x.atanh() + x.asinh() + (x.abs() + 1.5).acosh(),
            "z": x.sinh() + x.cosh() + x.asinh() + (x.abs() + 1.5).acosh() + x.erfc(),
        },
        1e-5,
    )
    stream = torch.stack([a, b], -1).reshape(4, 32)
    acc = b.clone()
    acc[1:3, 4:12] += a[0:2, 0:8]
    cases["data"] = (
        {"a": a, "b": b},
        {
            "pairs": torch.cat([stream[:, :16], stream[:, 16:], a, b, stream[:, :16:2], stream[:, 1:16:2]], -1),
            "acc": acc,
            "tri": torch.triu(a, 1) + torch.tril(b, -1),
        },
        0.0,
    )

    def block(s):
        s = s * 0.5
        m = s.amax(0, keepdim=True)
        e = (s - m).exp()
        return m, e.sum(0, keepdim=True), e.to(torch.bfloat16).float()

    m, total, e = block(w)
    (tm, ts, te), (lm, ls, le) = block(w[:4]), block(w[4:])
    mm = torch.maximum(tm, lm)
    scale_t, scale_l = (tm - mm).exp(), (lm - mm).exp()
    cases["online_softmax"] = (
        {"w": w},
        {"out": torch.cat([m, total, e[:4], e[4:], mm, ts * scale_t + ls * scale_l, te * scale_t + le * scale_l], 0)},
        1e-5,
    )
    left, right = torch.randn(4, 2, 16, generator=g).half(), torch.randn(2, 16, 8, generator=g).half()
    product = torch.matmul(left.transpose(0, 1).float(), right.float()).half().transpose(0, 1)
    cases["transposed_batchmatmul"] = ({"a": left, "b": right}, {"c": product}, 1e-3)
    ints = torch.tensor([[0x03040506, -2], [7, 0x01050608]], dtype=torch.int32)
    cases["pack_unpack"] = (
        {"a": ints},
        {"bytes_out": torch.from_numpy(ints.numpy().view(np.uint8).reshape(-1).copy()), "back": ints.reshape(-1)},
        0.0,
    )
    return cases


def main():
    worker = Worker(sys.argv[1])
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for k, (function, (inputs, want, tol)) in enumerate(expected_cases().items()):
            answer, got = worker.run(pathlib.Path(scratch) / f"case{k}", function, inputs, want)
            message = answer.get("message", "")
            if got is None and function == "pack_unpack" and "cannot reinterpret bytes" in message:
                print(f"SKIP {function}: {message}")
                continue
            problems = [] if got is not None else [f"{message} (line {answer.get('line')})"]
            for name, value in (got or {}).items():
                if value.dtype != want[name].dtype or value.shape != want[name].shape:
                    problems.append(
                        f"{name} is {value.dtype} {list(value.shape)}, expected {want[name].dtype} "
                        f"{list(want[name].shape)}"
                    )
                elif not torch.allclose(value.double(), want[name].double(), rtol=tol, atol=tol):
                    problems.append(f"{name} differs by {(value.double() - want[name].double()).abs().max().item()}")
            failed += bool(problems)
            print(f"{'FAIL' if problems else 'PASS'} {function}{': ' + '; '.join(problems) if problems else ''}")
    worker.stop()
    print(f"{failed} failed ({worker.description})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
