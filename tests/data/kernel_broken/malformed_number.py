# expect: 6:18 kernel.syntax invalid decimal literal
import pypto


def scale_gelu_kernel(x, y, scale, channels):
    y[:] = x * 1.5e
