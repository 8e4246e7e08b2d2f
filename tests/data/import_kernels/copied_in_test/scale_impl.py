"""A factory that needs no argument makes the kernel and returns it, and nothing calls what it
makes: the test beside it, test_scale.py, calls a copy of the kernel of its own, which runs the same
compute function. That copy's calls are the kernel's cases."""
import pypto


def scale_rows(x, y, factor):
    pypto.set_vec_tile_shapes(8, 32)
    y[:] = pypto.mul(x, factor)


def make_scale(run_mode="npu"):
    assert run_mode in ("npu", "sim")

    @pypto.frontend.jit
    def scale_kernel(
        x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32), y: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP32)
    ):
        scale_rows(x, y, 1.5)

    return scale_kernel
