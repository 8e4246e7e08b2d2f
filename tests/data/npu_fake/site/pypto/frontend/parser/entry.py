"""The jit wrapper where PyPTO keeps it (pypto.frontend.parser.entry.JitCallableWrapper): a
callable holding the original function and its runtime options, taking the tensors by position
and the rest by name."""


class JitCallableWrapper:
    def __init__(self, fn, runtime_options):
        self._original_func = fn
        self._runtime_options = dict(runtime_options or {})

    def __call__(self, *tensors, **values):
        import pypto

        if self._runtime_options.get("run_mode") != pypto.RunMode.NPU.value:
            raise RuntimeError(f"not in RunMode.NPU: {self._runtime_options}")
        for t in tensors:
            if not getattr(t, "fake_npu", False):
                raise RuntimeError("a tensor was not moved to the NPU")
        self._original_func(*tensors, **values)
