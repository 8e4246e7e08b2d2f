# expect: 12:24 kernel.unknown-function unknown pypto function 'lop'; did you mean 'log'?
# Loops over lists and unpacked loop_unroll pairs are ordinary Python: only the typo is an error.
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    rows, cols = x.shape
    for i in [1, 2]:
        pass
    for a, b in pypto.loop_unroll(rows, unroll_list=[2]):
        for j in pypto.lop(rows):
            pass
