"""The same op with its kernel made inside a test, which gives it the offset (kernel.made_by)."""
import pypto


def test_scale_add():
    offset = 1.0

    @pypto.frontend.jit(runtime_options={"run_mode": pypto.RunMode.SIM})
    def scale_add_kernel(x: pypto.Tensor[...], acc: pypto.Tensor[...], y: pypto.Tensor[...], scale: float):
        y[:] = x * scale + offset
        acc[:] = acc + x

    scale_add_kernel(None, None, None, 2.0)  # stops here: the kernel is taken, not run
