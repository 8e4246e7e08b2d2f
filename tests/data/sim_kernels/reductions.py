import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], row_sum: pypto.Tensor[...], col_max: pypto.Tensor[...], total_min: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(8, 16)
    row_sum[:] = pypto.sum(x, dim=-1, keepdim=True)
    col_max[:] = pypto.amax(x, 0)
    total_min[:] = pypto.amin(x, dim=[0, 1], keepdim=True)
