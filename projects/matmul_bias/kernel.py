"""MatmulBias: fp32-accumulated matmul with an optional transposed right matrix, plus bias."""
import pypto


@pypto.frontend.jit()
def matmul_bias_kernel(a: pypto.Tensor[...], b: pypto.Tensor[...], bias: pypto.Tensor([], pypto.DT_FP32),
                       y: pypto.Tensor([], pypto.DT_FP32), trans_b: bool):
    pypto.set_cube_tile_shapes([32, 32], [64, 64], [32, 32])
    acc = pypto.matmul(a, b, pypto.DT_FP32, b_trans=trans_b)
    pypto.set_vec_tile_shapes(32, 64)
    y[:] = acc + bias
