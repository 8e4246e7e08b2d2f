# expect: 6:16 kernel.syntax malformed number: an exponent needs digits
import pypto


def scale_gelu_kernel(x, y, scale, channels):
    y[:] = x * 1.5e
