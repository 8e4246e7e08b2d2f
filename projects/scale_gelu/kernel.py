"""ScaleGelu: y = gelu(x)[:, :channels] * scale, tanh approximation of GELU."""
import pypto


@pypto.frontend.jit()
def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):
    rows, cols = x.shape
    pypto.set_vec_tile_shapes(1, 64)
    for i in pypto.loop(rows, name="LOOP_ROWS", idx_name="i"):
        v = pypto.view(x, [1, channels], [i, 0])
        # gelu(v) = 0.5 * v * (1 + tanh(sqrt(2 / pi) * (v + 0.044715 * v^3)))
        inner = (v + v * v * v * 0.044715) * 0.7978845608028654
        g = v * (pypto.tanh(inner) + 1.0) * 0.5
        y[i:i + 1, :] = g * scale
