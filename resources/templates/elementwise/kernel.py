"""@OP_TYPE@: y = sigmoid(x) * alpha, elementwise."""
import pypto


@pypto.frontend.jit()
def @NAME@_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], alpha: float):
    # PyPTO needs vec tile shapes before a vector op, one dim per dim of x: here rows of up to
    # 128 elements.
    pypto.set_vec_tile_shapes(*([1] * (len(x.shape) - 1) + [128]))
    y[:] = pypto.sigmoid(x) * alpha
