"""The value a file's test compares a kernel output with, kept as a .npy file: when import finds
no reference, the case's "expected" in op.json, so verify checks the kernel as the test did. The
value is any array of the output's size (a tensor, a NumPy array, a list), saved in the output's
shape and dtype."""
import os

import _ptowb_sim as _sim
from _ptowb_import_expr import is_tensor, torch_module

# The largest recorded input or expected value kept (a paged bf16 KV cache of 64 sequences of 8K
# tokens is 512 MiB); a larger input is described, not kept, and a larger expected value is not
# kept: a fill standing in for an input loses the test's expected values.
MAX_SAVED_BYTES = 1 << 30


def _as_tensor(torch, value):
    if is_tensor(value):
        return value.detach().cpu()
    if type(value).__module__ == "numpy" and hasattr(value, "shape"):
        import numpy as np

        return torch.from_numpy(np.ascontiguousarray(value))
    if isinstance(value, (list, tuple)):
        return torch.tensor(value)
    return None


def save(out_dir, output, value, name):
    """`value` as the expected value of `output` (the kernel's result tensor), written to
    out_dir/name.npy; its path, or None when it is no array of the output's size or too large."""
    torch = torch_module()
    try:
        tensor = _as_tensor(torch, value)
        if tensor is None or tensor.numel() != output.numel():
            return None
        tensor = tensor.reshape(output.shape).to(output.dtype).contiguous()
    except Exception:  # noqa: BLE001 - a value torch cannot take is no expected value
        return None
    if tensor.numel() * tensor.element_size() > MAX_SAVED_BYTES:
        return None
    data = b"" if tensor.numel() == 0 else tensor.reshape(-1).view(torch.uint8).numpy().tobytes()
    target = os.path.join(out_dir, name + ".npy")
    handle = _sim.from_bytes(data, list(tensor.shape), str(tensor.dtype).replace("torch.", ""))
    return None if _sim.save_npy(handle, target) else target
