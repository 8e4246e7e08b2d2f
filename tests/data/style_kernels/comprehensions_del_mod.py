"""Views from a list comprehension, concat of the reversed list, del, % and // on tensors."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], z: pypto.Tensor[...]):
    parts = [pypto.view(x, [2, 4], [0, 4 * k]) for k in range(x.shape[1] // 4)]
    joined = pypto.concat(parts[::-1], dim=1)
    del parts
    y[:] = joined % 3.0
    z[:] = x // 2.0
