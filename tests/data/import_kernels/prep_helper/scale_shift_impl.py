"""x * 3 - 1 in half precision, with no host code: run_scale_shift.py beside it (not named
test_*) runs it, as deepseek's model scripts run their *_impl.py kernels."""
import pypto


@pypto.frontend.jit()
def scale_shift_kernel(x: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP16),
                       out: pypto.Tensor([pypto.DYNAMIC, 32], pypto.DT_FP16)):
    pypto.set_vec_tile_shapes(8, 32)
    out.move(x * 3.0 - 1.0)
