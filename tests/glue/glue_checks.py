"""What the glue check scripts share: one PASS/FAIL line per check and the closing count."""
import json
import os
import sys
import traceback

_counts = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        _counts["passed"] += 1
        print("PASS", name)
    else:
        _counts["failed"] += 1
        print("FAIL", name, detail)


def attempt(name, action):
    """Runs a check that passes when action() returns truthy without raising."""
    try:
        result = action()
        check(name, bool(result), "" if result else "returned %r" % (result,))
    except Exception:
        check(name, False, traceback.format_exc())


def all_match(results, goldens, same):
    """Every output matches its golden, and there are exactly as many outputs as goldens (zip
    alone would pass an op that returns too few)."""
    return len(results) == len(goldens) and all(same(got, want) for got, want in zip(results, goldens))


def load_tensor(package, entry):
    """A tensor of the package's tests/ (bfloat16 is stored as its 16-bit pattern)."""
    import numpy
    import torch

    array = numpy.load(os.path.join(package, entry["file"]))
    if entry["dtype"] == "bfloat16":
        return torch.from_numpy(array.view(numpy.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def check_backend_against_goldens(module, package, backend, what):
    """Every case of the package's tests/cases.json under module.Backend(backend) equals its
    golden outputs within the description's tolerance (or a default by dtype)."""
    import torch

    tolerances = json.load(open(os.path.join(package, "op.json"))).get("tolerance", {})
    for case in json.load(open(os.path.join(package, "tests", "cases.json")))["cases"]:
        inputs = [load_tensor(package, entry) for entry in case["inputs"].values()]
        params = json.load(open(os.path.join(package, case["parameters"])))
        goldens = [load_tensor(package, entry) for entry in case["outputs"].values()]
        try:
            with module.Backend(backend):
                results = module.op(*inputs, **params)
        except Exception:
            check("%s backend runs the kernel: %s" % (backend, case["name"]), False, traceback.format_exc())
            continue
        results = list(results) if isinstance(results, (tuple, list)) else [results]
        check(
            "%s backend returns one output per golden: %s" % (backend, case["name"]),
            len(results) == len(goldens),
            "%d outputs, %d goldens" % (len(results), len(goldens)),
        )
        for got, want, entry in zip(results, goldens, case["outputs"].values()):
            half = entry["dtype"] in ("float16", "bfloat16")
            tolerance = tolerances.get(entry["dtype"], {"rtol": 3e-3 if half else 1e-5, "atol": 3e-3 if half else 1e-6})
            close = torch.allclose(
                got.double(), want.double(), rtol=tolerance["rtol"], atol=tolerance["atol"], equal_nan=True
            )
            check(
                "%s backend (%s) equals the golden: %s" % (backend, what, case["name"]),
                close,
                "max abs error %s" % float((got.double() - want.double()).abs().max()),
            )


def finish():
    """Prints 'N passed, M failed' and exits with 1 when anything failed."""
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)
