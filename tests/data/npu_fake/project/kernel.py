"""y = x * scale + 1, and acc += x in place (a mutated input)."""
import pypto


@pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
def scale_add_kernel(x: pypto.Tensor[...], acc: pypto.Tensor[...], y: pypto.Tensor[...], scale: float):
    y[:] = x * scale + 1.0
    acc[:] = acc + x
