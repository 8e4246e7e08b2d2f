"""y = x * scale + 1, and acc += x in place (a mutated input); `offsets`, a dict keyed by ints
(op.json's {"dict": ...}), adds nothing."""
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def scale_add_kernel(x: pypto.Tensor[...], acc: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, offsets: dict):
    y[:] = x * scale + 1.0 + offsets[1]
    acc[:] = acc + x
