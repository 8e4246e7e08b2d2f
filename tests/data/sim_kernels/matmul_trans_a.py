import pypto


@pypto.frontend.jit()
def kernel(a: pypto.Tensor([], pypto.DT_FP16), b: pypto.Tensor([], pypto.DT_FP16), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    y[:] = pypto.matmul(a, b, pypto.DT_FP32, a_trans=True)
