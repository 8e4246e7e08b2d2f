#!/usr/bin/python3
"""Checks the workbench's `pypto` (core/worker/python/pypto) against the real package's public API
in tests/data/pypto_api/public_api.json (written by tests/tools/pypto_public_api.py):

- every name of the table exists in ours (module names, pypto.Tensor's methods, enum members);
- every public name of ours is in the table, so nothing is invented;
- a function of ours that the simulator does not run raises SimulatorError naming pypto.<name>
  when called, instead of computing something;
- a function's parameters are upstream's: its positional parameters are those of HEAD or of
  0.2.0 (names and order), and its keyword-only ones are among those the two versions have,
  including all of the version whose positional parameters it has.

    tests/tools/check_pypto_api.py [SOURCE_DIR]

It imports our modules with a stand-in for the native `_ptowb_sim` (only names are checked here;
the simulator's numerics have their own tests), so it needs no build.
"""
import importlib
import inspect
import json
import pathlib
import sys
import types

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
TABLE = ROOT / "tests" / "data" / "pypto_api" / "public_api.json"


class SimulatorError(Exception):
    pass


class _NativeStub(types.ModuleType):
    """`_ptowb_sim` without the simulator: importing works, running an op is an error."""

    SimulatorError = SimulatorError

    def __getattr__(self, name):
        def native(*args, **kwargs):
            raise RuntimeError(f"_ptowb_sim.{name} was called while checking names")

        return native


def load_ours():
    sys.modules["_ptowb_sim"] = _NativeStub("_ptowb_sim")
    sys.dont_write_bytecode = True  # nothing written into the source tree
    sys.path.insert(0, str(ROOT / "core" / "worker" / "python"))
    pypto = importlib.import_module("pypto")
    modules = {"pypto": pypto}
    for name in ("pypto.op", "pypto.tensor", "pypto.frontend", "pypto.experimental", "pypto.op.distributed"):
        modules[name] = importlib.import_module(name)
    return pypto, modules


def scope_object(scope, pypto, modules):
    if scope in modules:
        return modules[scope]
    if scope.startswith("pypto.") and scope.count(".") == 1:
        return getattr(pypto, scope.split(".")[1], None)
    return None


def is_enum(obj):
    return isinstance(obj, type) and hasattr(obj, "__members__")


def public_names(obj):
    if is_enum(obj):
        return set(obj.__members__)
    return {n for n in dir(obj) if not n.startswith("_")}


def has_name(obj, name):
    if is_enum(obj):
        return name in obj.__members__
    return hasattr(obj, name)


def params_of(signature):
    """['input', 'other', '*', 'precision_type'] from '(input, other, *, precision_type=...)'."""
    inner = signature.strip()[1:-1]
    names, depth, current = [], 0, ""
    for ch in inner + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            part = current.strip()
            if part:
                names.append(part.split("=")[0].strip())
            current = ""
        else:
            current += ch
    return [n for n in names if n != "/"]


def our_params(fn):
    out = []
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    for p in parameters:
        if p.kind == p.VAR_POSITIONAL:
            out.append("*" + p.name)
        elif p.kind == p.VAR_KEYWORD:
            out.append("**" + p.name)
        else:
            if p.kind == p.KEYWORD_ONLY and not any(x.startswith("*") for x in out):
                out.append("*")
            out.append(p.name)
    return out


def split(params):
    """(positional names, keyword-only names, variadic markers) of a parameter list."""
    positional, keyword, star = [], [], []
    seen_star = False
    for p in params:
        if p.startswith("**"):
            star.append("**")
        elif p.startswith("*"):
            seen_star = True
            if p != "*":
                star.append("*")
        elif seen_star:
            keyword.append(p)
        else:
            positional.append(p)
    return positional, keyword, star


def signature_problem(mine, versions):
    pos, kw, star = split(mine)
    upstream = [split(v) for v in versions]
    matching = [u for u in upstream if u[0] == pos and u[2] == star]
    if not matching:
        return "positional parameters or *args/**kwargs differ"
    allowed = set().union(*(u[1] for u in upstream))
    extra = [k for k in kw if k not in allowed]
    if extra:
        return f"keyword-only {extra} not upstream"
    missing = [k for k in matching[0][1] if k not in kw]
    if missing:
        return f"keyword-only {missing} missing"
    return None


def main():
    table = json.loads(TABLE.read_text())
    names = table["names"]
    pypto, modules = load_ours()
    problems = []

    scopes = {}
    for full in names:
        scope, _, short = full.rpartition(".")
        scopes.setdefault(scope, set()).add(short)
        obj = scope_object(scope, pypto, modules)
        if obj is None:
            problems.append(f"{full}: ours has no {scope}")
        elif not has_name(obj, short):
            problems.append(f"{full}: missing in the workbench's pypto")

    for scope, upstream in sorted(scopes.items()):
        obj = scope_object(scope, pypto, modules)
        if obj is None:
            continue
        for extra in sorted(public_names(obj) - upstream):
            problems.append(f"{scope}.{extra}: ours has it, the real pypto does not")

    # Not simulated: calling raises SimulatorError that names the function.
    for module_name in ("pypto", "pypto.op", "pypto.experimental", "pypto.frontend"):
        module = modules[module_name]
        for name in sorted(public_names(module)):
            value = getattr(module, name)
            if not getattr(value, "_ptowb_unsupported", False):
                continue
            try:
                value()
            except SimulatorError as exc:
                if f"pypto.{name}" not in str(exc) and f"{module_name}.{name}" not in str(exc):
                    problems.append(f"{module_name}.{name}: its error does not name it: {exc}")
            except Exception as exc:  # noqa: BLE001 - any other error is the problem reported
                problems.append(f"{module_name}.{name}: raises {type(exc).__name__} instead of SimulatorError: {exc}")
            else:
                problems.append(f"{module_name}.{name}: marked not simulated, but calling it raised nothing")

    # Parameters: ours take upstream's, by name and order.
    for full, entry in sorted(names.items()):
        if entry["kind"] not in ("function", "method") or "signature" not in entry:
            continue
        scope, _, short = full.rpartition(".")
        obj = scope_object(scope, pypto, modules)
        fn = getattr(obj, short, None) if obj is not None and not is_enum(obj) else None
        if fn is None or not callable(fn):
            continue
        mine = our_params(fn)
        if mine is None:
            continue
        versions = [params_of(entry["signature"])]
        if "signature_0_2_0" in entry:
            versions.append(params_of(entry["signature_0_2_0"]))
        if entry["kind"] == "method":
            versions = [v[1:] if v and v[0] in ("self", "cls") else v for v in versions]
            mine = mine[1:] if mine and mine[0] == "self" else mine
        problem = signature_problem(mine, versions)
        if problem:
            problems.append(f"{full}: ours takes ({', '.join(mine)}), upstream ({', '.join(versions[0])}): {problem}")

    missing_version = [n for n, e in names.items() if "in_0_2_0" not in e or "in_head" not in e]
    problems += [f"{n}: the table does not say which versions have it" for n in missing_version]

    for p in problems:
        print(p)
    print(f"{len(names)} upstream names checked against the workbench's pypto: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
