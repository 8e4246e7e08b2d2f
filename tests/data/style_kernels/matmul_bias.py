"""matmul with b transposed and a bias through extend_params."""
import pypto


@pypto.frontend.jit()
def kernel(a: pypto.Tensor[...], b: pypto.Tensor[...], bias: pypto.Tensor[...], y: pypto.Tensor[...]):
    pypto.set_cube_tile_shapes([16, 16], [32, 32], [16, 16])
    y[:] = pypto.matmul(a, b, pypto.DT_FP32, b_trans=True, extend_params={"bias_tensor": bias})
