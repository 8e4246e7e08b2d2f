"""What the glue check scripts share: one PASS/FAIL line per check and the closing count."""
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


def finish():
    """Prints 'N passed, M failed' and exits with 1 when anything failed."""
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] else 0)
