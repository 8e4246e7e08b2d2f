import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    a = pypto.abs(x) + 0.5
    s = pypto.sqrt(a) + pypto.rsqrt(a) + pypto.reciprocal(a) + pypto.log(a)
    t = pypto.sigmoid(x) + pypto.tanh(x) + pypto.relu(x) + pypto.neg(x)
    u = pypto.sin(x) + pypto.cos(x) + pypto.ceil(x) + pypto.floor(x) + pypto.round(x) + pypto.trunc(x)
    y[:] = s + t + u
