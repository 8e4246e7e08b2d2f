"""An accumulator started on the loop's first iteration and stored on its last (pypto.cond)."""
import pypto


@pypto.frontend.jit()
def kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):
    rows, cols = x.shape
    acc = pypto.full([1, cols], 0.0, pypto.DT_FP32)
    for i in pypto.loop(rows, name="ROWS", idx_name="i"):
        row = x[i:i + 1, :]
        if pypto.is_loop_begin(i):
            acc = row
        else:
            acc = acc + row
        if pypto.cond(pypto.is_loop_end(i)):
            y[:] = acc
