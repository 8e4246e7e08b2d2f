"""A @jit kernel defined inside a factory function, closing over its arguments."""
import pypto


def make_kernel(scale, offset):
    @pypto.frontend.jit()
    def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
        y[:] = pypto.add(pypto.mul(x, scale), offset)

    return kernel


kernel = make_kernel(3.0, -1.0)
