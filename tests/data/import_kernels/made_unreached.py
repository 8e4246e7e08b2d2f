"""A factory whose kernel nothing in the file builds: its tests live elsewhere."""
import pypto


def make_neg_kernel(dtype):
    @pypto.frontend.jit
    def neg_kernel(x: pypto.Tensor([pypto.DYNAMIC, 32], dtype), y: pypto.Tensor([pypto.DYNAMIC, 32], dtype)):
        pypto.set_vec_tile_shapes(8, 32)
        y[:] = pypto.neg(x)

    return neg_kernel
