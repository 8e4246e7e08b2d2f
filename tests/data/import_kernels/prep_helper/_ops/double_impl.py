"""x * 2, in a plain folder (no __init__.py) whose test lives in the folder above and imports it
as `_ops.double_impl`."""
import pypto


@pypto.frontend.jit()
def double_kernel(x: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32),
                  out: pypto.Tensor([pypto.DYNAMIC, 16], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(4, 16)
    out.move(x * 2.0)
