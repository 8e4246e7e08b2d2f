"""frontend.jit as PyPTO 0.2.0 shapes it (the wrapper in parser/entry.py)."""
from .parser.entry import JitCallableWrapper


def jit(fn=None, *, runtime_options=None, **options):
    if fn is None:
        return lambda f: JitCallableWrapper(f, runtime_options)
    return JitCallableWrapper(fn, runtime_options)
