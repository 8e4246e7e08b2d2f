"""torch.library operators registered for the NPU run on the CPU under the torch_npu stand-in.

Host code registers its fused operators for torch_npu's dispatch key (`torch.library.impl(lib,
"compressor", "NPU")`, "PrivateUse1", or the device type "npu") and calls them through torch.ops
on npu tensors. Under the stand-in those tensors are CPU tensors, which the NPU key never sees, so
each such implementation is registered for the CPU too, in a library of the stand-in's own.
An operator that has a CPU or composite implementation of the file's keeps it, and one the file
registers later replaces the stand-in's.
"""

_NPU_KEYS = ("NPU", "PrivateUse1", "npu")
_CPU_KEYS = ("CPU", "CompositeImplicitAutograd", "CompositeExplicitAutograd")
_fallbacks = {}  # "ns::op[.overload]" -> the stand-in's Library holding its CPU implementation


def patch(torch):
    """Makes torch.library.Library.impl register an NPU implementation for the CPU as well."""
    library = torch.library.Library
    original = library.impl
    if getattr(original, "_ptowb_npu_standin", False):
        return

    def impl(self, op_name, fn, dispatch_key="", *args, **kwargs):
        qualified = _qualified(self, op_name)
        # No key: the library's own, else torch's default, CompositeImplicitAutograd.
        key = dispatch_key or getattr(self, "dispatch_key", "") or "CompositeImplicitAutograd"
        # The file's own CPU or composite implementation replaces the stand-in's, and a new NPU
        # one the stand-in's copy of the old: the stand-in's goes first (torch 1.13 refuses a
        # second registration for a key).
        if (key in _CPU_KEYS or key in _NPU_KEYS) and qualified in _fallbacks:
            _drop(_fallbacks.pop(qualified))
        result = original(self, op_name, fn, dispatch_key, *args, **kwargs)
        if key in _NPU_KEYS and qualified and not _has_cpu_kernel(torch, qualified):
            try:
                fallback = library(self.ns, "IMPL")
                original(fallback, op_name, fn, "CPU", *args, **kwargs)
                _fallbacks[qualified] = fallback
            except Exception:  # noqa: BLE001 - torch refuses it: the operator stays NPU-only
                pass
        return result

    impl._ptowb_npu_standin = True
    library.impl = impl


def _qualified(lib, op_name):
    if isinstance(op_name, str):
        return op_name if "::" in op_name else f"{getattr(lib, 'ns', '')}::{op_name}"
    schema = getattr(op_name, "_schema", None)
    if schema is None:
        return None
    return schema.name + (f".{schema.overload_name}" if schema.overload_name else "")


def _has_cpu_kernel(torch, qualified):
    try:
        return any(torch._C._dispatch_has_kernel_for_dispatch_key(qualified, key) for key in _CPU_KEYS)
    except Exception:  # noqa: BLE001 - a torch without the query: assume none
        return False


def _drop(fallback):
    # At once, not when the last reference goes (torch 1.13 has no _destroy: its __del__ does it).
    destroy = getattr(fallback, "_destroy", None)
    if destroy is not None:
        destroy()
    else:
        fallback.__del__()
        fallback._op_impls = set()  # so that its __del__ finds nothing more to remove
