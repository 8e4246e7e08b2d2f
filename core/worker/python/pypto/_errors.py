"""The simulator's error, the category every public function declares beside its signature, and
the stand-ins for PyPTO names the simulator does not run: each exists, so a kernel that imports or
mentions it loads, and using it is an error at the kernel's calling line."""
import ast as _ast
import inspect as _inspect

import _ptowb_sim as _sim

# An op the simulator cannot run as called; reported at the kernel line that called it.
SimulatorError = _sim.SimulatorError


# What a function is, for hover help (core/kernel/pypto_api.cpp): the worker's `api` request
# reports it, and the API table is printed from that answer.
CATEGORIES = ("elementwise", "comparison", "reduction", "matmul", "data", "control", "option")


def category(name):
    """Declares the category of the public function it decorates."""
    if name not in CATEGORIES:
        raise ValueError(f"unknown category {name!r}")

    def declare(fn):
        fn._ptowb_category = name
        return fn

    return declare


def not_simulated_message(name):
    return f"not supported by the simulator: pypto.{name}"


class _Default:
    """A default value shown as PyPTO writes it (the stand-in never uses it)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _signature(params):
    """inspect.Signature of a parameter list written as in PyPTO's source, e.g.
    "input, dim, *, alpha=1"; completion, hover help and the linter read it."""
    args = _ast.parse(f"def f({params}): pass").body[0].args
    kinds = _inspect.Parameter
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for k, (a, d) in enumerate(zip(positional, defaults)):
        kind = kinds.POSITIONAL_ONLY if k < len(args.posonlyargs) else kinds.POSITIONAL_OR_KEYWORD
        out.append(kinds(a.arg, kind, default=kinds.empty if d is None else _Default(_ast.unparse(d))))
    if args.vararg:
        out.append(kinds(args.vararg.arg, kinds.VAR_POSITIONAL))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append(kinds(a.arg, kinds.KEYWORD_ONLY, default=kinds.empty if d is None else _Default(_ast.unparse(d))))
    if args.kwarg:
        out.append(kinds(args.kwarg.arg, kinds.VAR_KEYWORD))
    return _inspect.Signature(out)


def not_simulated(name, params, kind):
    """A function of PyPTO's API that the simulator does not run, with PyPTO's parameters and its
    category `kind`."""

    def stub(*args, **kwargs):
        raise SimulatorError(not_simulated_message(name))

    stub.__name__ = name.rpartition(".")[2]
    stub.__qualname__ = stub.__name__
    stub.__signature__ = _signature(params)
    stub._ptowb_unsupported = True
    return category(kind)(stub)


def not_simulated_class(name):
    """A class of PyPTO's API that the simulator does not model: constructing it is the error, so
    annotations and isinstance checks that only mention it still work."""

    def __init__(self, *args, **kwargs):
        raise SimulatorError(not_simulated_message(name))

    cls = type(
        name.rpartition(".")[2],
        (),
        {"__init__": __init__, "__module__": "pypto", "__doc__": f"pypto.{name}: not simulated."},
    )
    cls._ptowb_unsupported = True
    return cls
