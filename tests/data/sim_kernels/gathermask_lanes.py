import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], first: pypto.Tensor[...], third: pypto.Tensor[...], whole: pypto.Tensor[...]):
    pypto.set_vec_tile_shapes(4, 32)
    first[:] = pypto.gathermask(x, 1)
    third[:] = x.gathermask(pattern_mode=5)
    whole[:] = pypto.gathermask(x, 7)
