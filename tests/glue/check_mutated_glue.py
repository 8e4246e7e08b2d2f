"""Runs the glue of an op that writes one of its inputs in place (op.json "mutated": true), with
whichever torch runs it.

    check_mutated_glue.py PACKAGE_DIR                 # the Python module
    check_mutated_glue.py PACKAGE_DIR --library LIB   # the C++ op library alone

For every case of tests/cases.json, on a fresh copy of its inputs: the op's outputs equal their
goldens and each mutated input then holds its golden ("mutated"), with the reference and, where
ptowb's kernel worker is found (PTOWB_KERNEL_WORKER), with the kernel in the simulator. The
schema declares the mutation (Tensor(a!)). The module: ONNX export refuses the op with a clear
error instead of writing a graph that would read the old value; where torch has them (>= 2.4),
torch.library.opcheck passes and torch.compile(fullgraph=True) mutates as eager does.
Prints one line per check and 'N passed, M failed'.
"""
import json
import os
import re
import sys
import traceback

import numpy
import torch
from glue_checks import check, finish

PACKAGE = sys.argv[1]
LIBRARY = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--library" else None
MANIFEST = json.load(open(os.path.join(PACKAGE, "manifest.json")))
CASES = json.load(open(os.path.join(PACKAGE, "tests", "cases.json")))["cases"]
TORCH = tuple(int(part) for part in re.findall(r"\d+", torch.__version__)[:2])
print("torch", torch.__version__)


def load(entry):
    return torch.from_numpy(numpy.load(os.path.join(PACKAGE, entry["file"])))


def close(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and torch.allclose(a.double(), b.double(), rtol=2e-3, atol=2e-3)


if LIBRARY:
    torch.ops.load_library(LIBRARY)
    module = None
else:
    sys.path.insert(0, os.path.join(PACKAGE, "python"))
    module = __import__(MANIFEST["namespace"] + "_" + MANIFEST["name"])
op = getattr(getattr(torch.ops, MANIFEST["namespace"]), MANIFEST["name"])
schema = str(op.default._schema)
check("the schema declares the mutated input: " + schema, "(a!)" in schema)


def run_case(case, backend):
    inputs = {name: load(entry) for name, entry in case["inputs"].items()}
    params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
    if module is not None:
        with module.Backend(backend):
            result = op(**inputs, **params)
    else:
        os.environ["PTOWB_BACKEND"] = backend
        result = op(**inputs, **params)
    # An op whose only results are the inputs it updates returns None (schema `-> ()`).
    results = [] if result is None else list(result) if isinstance(result, (tuple, list)) else [result]
    outputs_ok = len(results) == len(case["outputs"]) and all(
        close(got, load(want)) for got, want in zip(results, case["outputs"].values())
    )
    mutated_ok = all(close(inputs[name], load(want)) for name, want in case["mutated"].items())
    untouched_ok = all(
        torch.equal(inputs[name], load(entry)) for name, entry in case["inputs"].items() if name not in case["mutated"]
    )
    return outputs_ok, mutated_ok and untouched_ok


backends = ["ref"] + (["sim"] if os.environ.get("PTOWB_KERNEL_WORKER") else [])
for case in CASES:
    check("case %s has mutated goldens" % case["name"], bool(case.get("mutated")))
    for backend in backends:
        try:
            outputs_ok, mutated_ok = run_case(case, backend)
            check("%s %s: outputs equal the goldens" % (backend, case["name"]), outputs_ok)
            check(
                "%s %s: the mutated input holds its golden, the others are untouched" % (backend, case["name"]),
                mutated_ok,
            )
        except Exception:
            check("%s %s runs" % (backend, case["name"]), False, traceback.format_exc())

if module is not None:
    case = CASES[0]
    inputs = [load(entry) for entry in case["inputs"].values()]
    params = json.load(open(os.path.join(PACKAGE, case["parameters"])))

    class Model(torch.nn.Module):
        def forward(self, *tensors):
            return op(*tensors, **params)

    try:
        module.export_onnx(Model(), tuple(inputs), os.path.join(PACKAGE, "never.onnx"), dynamo=False)
        check("ONNX export refuses an op that writes its input in place", False, "it exported")
    except RuntimeError as error:
        check("ONNX export refuses an op that writes its input in place", "in place" in str(error), str(error))
    if TORCH >= (2, 4):
        try:
            fresh = [load(entry) for entry in case["inputs"].values()]
            torch.library.opcheck(op.default, tuple(fresh), params)
            check("torch.library.opcheck passes every test", True)
        except Exception:
            check("torch.library.opcheck passes every test", False, traceback.format_exc())
        eager = [load(entry) for entry in case["inputs"].values()]
        compiled = [load(entry) for entry in case["inputs"].values()]
        want = op(*eager, **params)
        got = torch.compile(lambda *tensors: op(*tensors, **params), fullgraph=True)(*compiled)
        check(
            "torch.compile(fullgraph=True) mutates the input as eager does",
            (got is None and want is None or close(got, want)) and all(close(a, b) for a, b in zip(compiled, eager)),
        )

finish()
