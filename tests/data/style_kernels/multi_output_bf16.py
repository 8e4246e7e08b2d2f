"""Two outputs from a bf16 input: an elementwise result and an fp32 row sum."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor([], pypto.DT_BF16), doubled: pypto.Tensor([], pypto.DT_BF16), row_sum: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(1, 32)
    doubled[:] = x * 2.0
    row_sum[:] = pypto.cast(pypto.sum(x, -1, keepdim=True), pypto.DT_FP32)
