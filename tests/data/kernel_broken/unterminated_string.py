# expect: 6:56 kernel.syntax unterminated string literal (detected at line 6)
import pypto


def scale_gelu_kernel(x, y, scale, channels):
    for i in pypto.loop(4, name="LOOP_ROWS, idx_name="i"):
        pass
