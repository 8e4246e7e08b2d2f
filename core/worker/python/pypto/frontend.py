"""pypto.frontend: the jit decorator and its helpers. The workbench calls a kernel eagerly, so a
jit function is the Python function itself, with its options kept for the run record."""
import functools as _functools

from pypto._errors import category as _category
from pypto._symbolic import SymbolicScalar  # noqa: F401 - part of PyPTO's frontend namespace


class _JitFunction:
    def __init__(self, fn, options):
        self.fn = fn
        self.options = options
        _functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


@_category("control")
def jit(
    func=None,
    *,
    host_options=None,
    codegen_options=None,
    pass_options=None,
    runtime_options=None,
    verify_options=None,
    debug_options=None,
    new_ir=True,
    create_new_logical_tensor=False,
    infer_controlflow_shape=None,
    use_cache=True,
):
    # Both `@jit` and `@jit(...)`; the options of HEAD and of 0.2.0 (infer_controlflow_shape,
    # use_cache) are accepted and kept.
    options = {
        k: v
        for k, v in dict(
            host_options=host_options,
            codegen_options=codegen_options,
            pass_options=pass_options,
            runtime_options=runtime_options,
            verify_options=verify_options,
            debug_options=debug_options,
        ).items()
        if v is not None
    }
    if func is not None:
        return _JitFunction(func, options)
    return lambda f: _JitFunction(f, options)


@_category("control")
def _package_jit(
    func=None,
    *,
    host_options=None,
    codegen_options=None,
    pass_options=None,
    runtime_options=None,
    verify_options=None,
    debug_options=None,
    new_ir=True,
    create_new_logical_tensor=False,
):
    """pypto.jit: HEAD's alias of frontend.jit (0.2.0 has no pypto.jit, so none of its options)."""
    return jit(
        func,
        host_options=host_options,
        codegen_options=codegen_options,
        pass_options=pass_options,
        runtime_options=runtime_options,
        verify_options=verify_options,
        debug_options=debug_options,
        new_ir=new_ir,
        create_new_logical_tensor=create_new_logical_tensor,
    )


_package_jit.__name__ = _package_jit.__qualname__ = "jit"


@_category("control")
def function(func=None):
    # `@function` and `@function()`: a helper PyPTO inlines into the kernel; here it is just called.
    if func is not None:
        return func
    return lambda f: f


@_category("control")
def dynamic(name):
    return SymbolicScalar(name)


def __getattr__(name):
    # The worker's driver unwraps jit functions by this class; it is not PyPTO API, so it is not
    # a listed name of the module.
    if name == "JitFunction":
        return _JitFunction
    raise AttributeError(f"module 'pypto.frontend' has no attribute '{name}'")
