#!/usr/bin/python3
"""Writes the rows of core/kernel/pypto_api.cpp's table from the kernel worker's own `pypto`
module (its `api` request), so the table and the module cannot drift; tst_kernel checks that they
agree.

    tests/tools/pypto_api_table.py build/release/lib/ptowb/ptowb-kernel-worker
    tests/tools/pypto_api_table.py --source

With a worker, the worker answers the request. With --source, the request is answered here, by
the driver's own `api` handler over core/worker/python imported with a stand-in for the native
`_ptowb_sim` (the answer lists names, categories and parameters only, which need no simulator).
Each function's category is declared beside it in the module (pypto._errors.category).
"""
import json
import pathlib
import re
import subprocess
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]


def strings(names):
    return "{" + ", ".join(f'"{n}"' for n in names) + "}"


def answer_from_source():
    """The driver's `api` answer, computed in this process over the source tree."""

    class SimulatorError(Exception):
        pass

    native = types.ModuleType("_ptowb_sim")
    native.SimulatorError = SimulatorError
    sys.modules["_ptowb_sim"] = native
    sys.dont_write_bytecode = True  # nothing written into the source tree
    sys.path.insert(0, str(ROOT / "core" / "worker" / "python"))
    import _ptowb_driver

    return _ptowb_driver._api({"op": "api"})


def main():
    if sys.argv[1:] == ["--source"]:
        answer = answer_from_source()
    else:
        out = subprocess.run(
            [sys.argv[1]], input=json.dumps({"op": "api"}) + "\n", capture_output=True, text=True, check=True
        ).stdout
        # The worker greets first (progress while it is built, then ready); the answer follows.
        answer = next(a for a in map(json.loads, out.splitlines()) if a.get("status") not in ("progress", "ready"))
    rows = []
    for e in answer["api"]:
        rows.append(
            f'        {{"{e["name"]}", "{e["category"]}", {strings(e["params"])}, {e["required"]}, '
            f'{strings(e["keyword_only"])}, {str(e["variadic"]).lower()}, {str(e["var_keywords"]).lower()}, '
            f'{str(e["simulated"]).lower()}}},'
        )
    constants = [f'        "{c}",' for c in answer["constants"]]
    target = ROOT / "core" / "kernel" / "pypto_api.cpp"
    text = target.read_text()
    for what, lines in (("ROWS", rows), ("CONSTANTS", constants)):
        text = re.sub(
            rf"( *// BEGIN GENERATED {what}\n).*?( *// END GENERATED {what}\n)",
            lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2),
            text,
            flags=re.S,
        )
    target.write_text(text)


if __name__ == "__main__":
    main()
