#!/usr/bin/python3
"""How many real kernel files verify as imported: each file's jit kernels (at the top level and
made inside functions; one per name) are imported
with `ptowb-cli import` (which runs the file's own main and tests) and the project is verified
against the simulator with `ptowb-cli verify`, nothing edited in between.

    tests/tools/import_verify_rate.py --cli build/release/app/cli/ptowb-cli [--root DIR] [PATH...]
        [--every N] [--jobs J] [--python PY] [--min-rate R]

--root (default $PYPTO_EXAMPLES) is a checkout of hicann/pypto; the PATHs (default examples,
models, python/tests) are files or folders in it. --every N takes every N-th file (sorted) to
keep a run short. A file counts when a function of it is decorated with jit. Without a root the
script prints SKIP and exits 77 (CTest's skip).
Per kernel: VERIFIED (": expected values" when verify compared with the values the file's test
expected, reference.py still to write), TODO (imported with things to fill in; verify not run), VERIFY-FAIL,
IMPORT-FAIL, with the first reason; then the shares of kernels and of files (a file counts when
every kernel of it verified). Exit 1 when the file share is below --min-rate.
"""
import argparse
import ast
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

JIT = re.compile(r"^\s*@\s*(pypto\.)?(frontend\.)?jit\b", re.M)


def is_kernel_file(path):
    """A file with a function decorated with jit; a docstring or a script in a string that
    mentions `@pypto.frontend.jit` is none. A file Python cannot parse counts (import says why)."""
    text = path.read_text(errors="replace")
    if not JIT.search(text):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                if getattr(target, "attr", getattr(target, "id", None)) == "jit":
                    return True
    return False


def run(args, timeout):
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", f"timed out after {timeout} s"


def first_error(text):
    for line in text.splitlines():
        if ": error:" in line or "FAIL" in line or "timed out" in line:
            return line.strip()[:300]
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def one_kernel(cli, python, file, kernel, scratch, timeout, first_use=0):
    """first_use: seconds more for the worker's first-use build for the interpreter, which the
    import's own time limit does not count (minutes, once). The project is deleted once its
    verdict is known: a model's recorded inputs and runs take gigabytes."""
    # A folder of its own: files of the same name in two folders may hold kernels of the same name.
    out = tempfile.mkdtemp(prefix=f"{Path(file).stem}-{kernel}-", dir=scratch)
    try:
        return _verdict(cli, python, file, kernel, out, timeout, first_use)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _verdict(cli, python, file, kernel, out, timeout, first_use):
    extra = ["--python", python] if python else []
    # Import answers with the calls it recorded by its own time limit, which ends before the tool's.
    limit = ["--time-limit", str(max(30, timeout - 60))]
    code, stdout, stderr = run(
        [cli, "import", file, "--function", kernel, "--out", out] + extra + limit, timeout + first_use
    )
    import_out = stdout
    if code != 0:
        return "IMPORT-FAIL", first_error(stderr + stdout)
    if re.search(r"\d+ thing\(s\) to fill in", stdout):
        return "TODO", first_error(stderr)
    code, stdout, stderr = run([cli, "verify", out, "--against", "sim"] + extra, timeout)
    if code != 0:
        return "VERIFY-FAIL", first_error(stdout + stderr)
    # Verified against the values the file's test expected, reference.py still to be written.
    return ("VERIFIED", "expected values") if "expected values:" in import_out else ("VERIFIED", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--root", default=os.environ.get("PYPTO_EXAMPLES", ""))
    parser.add_argument("--python", default="")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--min-rate", type=float, default=0.0)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args()
    if not args.root or not os.path.isdir(args.root):
        print("SKIP: no checkout of hicann/pypto is named (PYPTO_EXAMPLES or --root)")
        return 77
    root = Path(args.root)
    files = []
    for p in args.paths or ["examples", "models", "python/tests"]:
        base = root / p
        candidates = [base] if base.is_file() else sorted(base.rglob("*.py"))
        files += [f for f in candidates if is_kernel_file(f)]
    files = files[:: max(1, args.every)]
    jobs = []
    with tempfile.TemporaryDirectory() as scratch:
        for f in files:
            code, stdout, stderr = run([args.cli, "import", str(f), "--list"], 60)
            kernels = list(dict.fromkeys(line.split("\t")[0] for line in stdout.splitlines() if line.strip()))
            if code != 0 or not kernels:
                jobs.append((f, None, ("IMPORT-FAIL", first_error(stderr) or "no jit kernel")))
                continue
            jobs += [(f, k, None) for k in kernels]
        # The first kernel alone: it waits for the worker's first-use build for the interpreter,
        # which the others then share instead of timing out behind it.
        first = next((n for n, (f, k, done) in enumerate(jobs) if done is None), None)
        if first is not None:
            f, k, _ = jobs[first]
            jobs[first] = (f, k, one_kernel(args.cli, args.python, str(f), k, scratch, args.timeout, 3600))
            print(f"{jobs[first][2][0]:11} {f}::{k}", file=sys.stderr, flush=True)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [
                (f, k, done or pool.submit(one_kernel, args.cli, args.python, str(f), k, scratch, args.timeout))
                for f, k, done in jobs
            ]
            for f, k, r in futures:
                if not isinstance(r, tuple):
                    # a full run takes an hour: each kernel's verdict shows as it arrives
                    r.add_done_callback(
                        lambda done, f=f, k=k: print(f"{done.result()[0]:11} {f}::{k}", file=sys.stderr, flush=True)
                    )
            results = [(f, k, r if isinstance(r, tuple) else r.result()) for f, k, r in futures]
    by_file, why_by_file = {}, {}
    counts = {}
    recorded = 0
    for f, k, (verdict, why) in results:
        rel = f.relative_to(root)
        print(f"{verdict:11} {rel}::{k or '-'}" + (f": {why}" if why else ""))
        counts[verdict] = counts.get(verdict, 0) + 1
        by_file.setdefault(rel, []).append(verdict)
        why_by_file.setdefault(rel, []).append(why)
        recorded += verdict == "VERIFIED" and why == "expected values"
    kernels = len(results)
    verified = counts.get("VERIFIED", 0)
    good_files = sum(all(v == "VERIFIED" for v in vs) for vs in by_file.values())
    with_reference = sum(
        all(v == "VERIFIED" for v in vs) and all(w != "expected values" for w in ws)
        for vs, ws in ((vs, why_by_file[f]) for f, vs in by_file.items())
    )
    print(", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    print(
        f"kernels: {verified} of {kernels} verify as imported ({100.0 * verified / max(kernels, 1):.0f}%), "
        f"{recorded} of them against the values their test expected (reference.py still to write)"
    )
    rate = good_files / max(len(by_file), 1)
    print(
        f"files: {good_files} of {len(by_file)} verify as imported ({100.0 * rate:.0f}%), "
        f"{with_reference} of them with a reference for every kernel"
    )
    return 1 if rate < args.min_rate else 0


if __name__ == "__main__":
    sys.exit(main())
