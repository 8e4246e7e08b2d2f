"""A kernel for an op description full of text that generated code must escape."""
import pypto


@pypto.frontend.jit()
def odd_kernel(x: pypto.Tensor[...], w: pypto.Tensor[...], y: pypto.Tensor[...], s: pypto.Tensor[...], n: int):
    y[:] = x[:, :n]
