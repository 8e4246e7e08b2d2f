"""@OP_TYPE@: y = sigmoid(x) * alpha, elementwise."""
import pypto


@pypto.frontend.jit()
def @NAME@_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], alpha: float):
    y[:] = pypto.sigmoid(x) * alpha
