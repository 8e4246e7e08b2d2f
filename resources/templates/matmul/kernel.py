"""@OP_TYPE@: y = a @ b with float32 accumulation on the cube unit."""
import pypto


@pypto.frontend.jit()
def @NAME@_kernel(a: pypto.Tensor[...], b: pypto.Tensor[...], y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([32, 32], [64, 64], [32, 32])
    y[:] = pypto.matmul(a, b, pypto.DT_FP32)
