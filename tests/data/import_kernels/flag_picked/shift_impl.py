"""Two kernels of one op family: x scaled, and x shifted. The tests beside the file call the
shifted one only from a helper that a skipped function runs with the flag that picks it."""
import pypto


@pypto.frontend.jit()
def scale_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32), out: pypto.Tensor([4, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 8)
    out[:] = x * 2.0


@pypto.frontend.jit()
def shift_kernel(x: pypto.Tensor([4, 8], pypto.DT_FP32), out: pypto.Tensor([4, 8], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 8)
    out[:] = x + 1.5
