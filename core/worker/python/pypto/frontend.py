"""pypto.frontend: the jit decorator and its helpers. The workbench calls a kernel eagerly, so a
jit function is the Python function itself, with its options kept for the run record."""
import functools

from pypto._symbolic import SymbolicScalar


class JitFunction:
    def __init__(self, fn, options):
        self.fn = fn
        self.options = options
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def jit(fn=None, **options):
    if fn is not None and callable(fn) and not options:
        return JitFunction(fn, {})

    def decorate(f):
        return JitFunction(f, options)
    return decorate


def function(fn=None, *args, **kwargs):
    if callable(fn):
        return fn
    return lambda f: f


def dynamic(name):
    return SymbolicScalar(name)
