"""y = relu(x) * 2 on the whole tensor (a kernel for calibrating the cost model)."""
import pypto


@pypto.frontend.jit()
def relu_scale_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(16, 128)
    y[:] = pypto.relu(x) * 2.0
