"""Loads a package's C++ op library and imports its Python module in the order given, then
calls the op on the first case: either order must leave one working op.

    check_load_order.py PACKAGE_DIR LIBRARY module-first|library-first|library-only

library-only loads the library alone and, where torch has it (>= 2.1), also runs the op under
torch.compile(fullgraph=True, dynamic=True), which takes its output types from the library's
Meta kernel. Prints 'PASS <order>: ...' or a FAIL line.
"""
import json
import os
import sys

import numpy
import torch

PACKAGE, LIBRARY, ORDER = sys.argv[1], sys.argv[2], sys.argv[3]
MANIFEST = json.load(open(os.path.join(PACKAGE, "manifest.json")))
sys.path.insert(0, os.path.join(PACKAGE, "python"))


def import_module():
    return __import__(MANIFEST["namespace"] + "_" + MANIFEST["name"])


if ORDER == "module-first":
    import_module()
    torch.ops.load_library(LIBRARY)
else:
    torch.ops.load_library(LIBRARY)
    if ORDER == "library-first":
        import_module()

case = json.load(open(os.path.join(PACKAGE, "tests", "cases.json")))["cases"][0]
inputs = [torch.from_numpy(numpy.load(os.path.join(PACKAGE, e["file"]))) for e in case["inputs"].values()]
params = json.load(open(os.path.join(PACKAGE, case["parameters"])))
goldens = [torch.from_numpy(numpy.load(os.path.join(PACKAGE, e["file"]))) for e in case["outputs"].values()]
op = getattr(getattr(torch.ops, MANIFEST["namespace"]), MANIFEST["name"])


def equal_to_goldens(result):
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    # As many outputs as goldens: zip alone would pass an op that returns too few.
    return len(results) == len(goldens) and all(
        torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-6, equal_nan=True) for a, b in zip(results, goldens)
    )


ok = equal_to_goldens(op(*inputs, **params))
print("%s %s: the op runs and equals the golden" % ("PASS" if ok else "FAIL", ORDER))
if (
    ORDER == "library-only"
    and hasattr(torch, "compile")
    and tuple(int(v) for v in torch.__version__.split(".")[:2]) >= (2, 1)
):
    compiled = torch.compile(lambda *tensors: op(*tensors, **params), fullgraph=True, dynamic=True)
    compiled_ok = equal_to_goldens(compiled(*inputs))
    print(
        "%s %s: torch.compile(fullgraph=True, dynamic=True) equals the golden"
        % ("PASS" if compiled_ok else "FAIL", ORDER)
    )
    ok = ok and compiled_ok
sys.exit(0 if ok else 1)
