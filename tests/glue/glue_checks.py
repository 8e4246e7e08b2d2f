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
    golden outputs, and the inputs it writes their golden contents ("mutated"), within the
    description's tolerance (or a default by dtype)."""
    import torch

    tolerances = json.load(open(os.path.join(package, "op.json"))).get("tolerance", {})

    def close(got, want, entry):
        half = entry["dtype"] in ("float16", "bfloat16")
        tolerance = tolerances.get(entry["dtype"], {"rtol": 3e-3 if half else 1e-5, "atol": 3e-3 if half else 1e-6})
        return torch.allclose(
            got.double(), want.double(), rtol=tolerance["rtol"], atol=tolerance["atol"], equal_nan=True
        )

    for case in json.load(open(os.path.join(package, "tests", "cases.json")))["cases"]:
        inputs = {name: load_tensor(package, entry) for name, entry in case["inputs"].items()}
        params = json.load(open(os.path.join(package, case["parameters"])))
        try:
            with module.Backend(backend):
                results = module.op(*inputs.values(), **params)
        except Exception:
            check("%s backend runs the kernel: %s" % (backend, case["name"]), False, traceback.format_exc())
            continue
        results = [] if results is None else list(results) if isinstance(results, (tuple, list)) else [results]
        goldens = list(case["outputs"].items()) + [(name, entry) for name, entry in case.get("mutated", {}).items()]
        got = results + [inputs[name] for name in case.get("mutated", {})]
        check(
            "%s backend returns one output per golden: %s" % (backend, case["name"]),
            len(results) == len(case["outputs"]),
            "%d outputs, %d goldens" % (len(results), len(case["outputs"])),
        )
        for tensor, (name, entry) in zip(got, goldens):
            want = load_tensor(package, entry)
            check(
                "%s backend (%s) equals the golden: %s" % (backend, what, case["name"]),
                close(tensor, want, entry),
                "%s: max abs error %s" % (name, float((tensor.double() - want.double()).abs().max())),
            )


def finish():
    """Prints 'N passed, M failed' and exits with 1 when anything failed."""
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)
