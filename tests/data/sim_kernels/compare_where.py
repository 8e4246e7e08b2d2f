import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], slope: float):
    leaky = pypto.where(pypto.gt(x, 0.0), x, x * slope)
    flags = pypto.where(pypto.le(x, -1.0), 1.0, 0.0) + pypto.where(x >= 1.0, 2.0, 0.0)
    exact = pypto.where(pypto.eq(x, 0.5), 4.0, 0.0) + pypto.where(pypto.ne(x, x), 8.0, 0.0)
    between = pypto.where(pypto.logical_not(pypto.lt(x, -2.0)), 0.0, 16.0) + pypto.where(pypto.ge(x, 2.0), 32.0, 0.0)
    y[:] = leaky + flags + exact + between
