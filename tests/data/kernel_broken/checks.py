# expect: 13:1 kernel.missing-parameter the kernel takes no parameter for output 'y'
# expect: 13:43 kernel.annotation the annotation fixes input 'x' to DT_INT8 (int8), but the op allows 'float16', 'float32'
# expect: 13:66 kernel.annotation parameter 'scale' is a float in the op description, but is annotated int
# expect: 13:71 kernel.unbound-parameter kernel parameter 'chanels' is not an input, output or parameter of the op; did you mean 'channels'?
# expect: 16:19 kernel.unknown-function unknown pypto function 'veiw'; did you mean 'view'?
# expect: 17:29 kernel.arguments pypto.exp takes at most 2 positional arguments, got 3
# expect: 18:46 kernel.arguments pypto.matmul has no argument 'b_tran'; did you mean 'b_trans'?
# expect: 18:13 kernel.arguments pypto.matmul needs argument 'out_dtype'
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor([], pypto.DT_INT8), scale: int, chanels: int):
    rows, cols = x.shape
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.veiw(x, [1, cols], [i, 0])
        g = pypto.exp(v, 3, 4)
        m = pypto.matmul(v, v, b_trans=True, b_tran=1)
