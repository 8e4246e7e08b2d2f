"""A decay kernel that a factory builds from the sizes it is called with; the factory rebinds its
own parameters before it makes the kernel, as model code often does (`b = pypto.DYNAMIC`)."""
import pypto


def make_decay_kernel(rows, cols, rate):
    shape = [rows, cols]
    rows = pypto.DYNAMIC
    cols = pypto.DYNAMIC

    @pypto.frontend.jit
    def decay_kernel(
        x: pypto.Tensor([rows, shape[1]], pypto.DT_FP32), y: pypto.Tensor([rows, shape[1]], pypto.DT_FP32)
    ):
        pypto.set_vec_tile_shapes(8, 32)
        y[:] = pypto.mul(x, rate)

    return decay_kernel
