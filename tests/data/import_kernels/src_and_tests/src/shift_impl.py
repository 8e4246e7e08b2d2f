"""A kernel kept in src/, as an operator repository lays it out: its test is ../tests/test_shift.py
and its golden ../golden/shift_golden.py; neither is in this folder."""
import pypto


@pypto.frontend.jit
def shift_kernel(x: pypto.Tensor([], pypto.DT_FP32), y: pypto.Tensor([], pypto.DT_FP32)):
    pypto.set_vec_tile_shapes(8, 32)
    y.move(pypto.add(x, 1.5))
