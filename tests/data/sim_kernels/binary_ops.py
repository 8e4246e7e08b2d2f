import pypto


@pypto.frontend.jit()
def kernel(a: pypto.Tensor[...], b: pypto.Tensor[...], y: pypto.Tensor[...]):
    p = pypto.maximum(a, b) - pypto.minimum(a, b)
    q = pypto.mul(a, b) + pypto.div(a, pypto.abs(b) + 1.0)
    r = pypto.pow(pypto.abs(a) + 1.0, 2.0) + a ** 2
    y[:] = pypto.add(p, q * 2) + r - -a
