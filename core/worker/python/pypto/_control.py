"""Control flow, tiling and options of PyPTO's API, run eagerly: loops yield concrete indices,
options are accepted and recorded for the run record."""
import builtins

import _ptowb_sim as _sim

from pypto._symbolic import ScalarInt as _ScalarInt
from pypto._tensor import _index, _ints

_recorded_options = []


class _LoopIndex(_ScalarInt):
    """A loop index: an int that knows whether it is its loop's first or last."""

    def __new__(cls, value, begin, end):
        i = int.__new__(cls, value)
        i.begin = begin
        i.end = end
        return i


def _loop_range(args):
    if len(args) == 1:
        return 0, _index(args[0]), 1
    if len(args) == 2:
        return _index(args[0]), _index(args[1]), 1
    if len(args) == 3:
        return _index(args[0]), _index(args[1]), _index(args[2])
    raise TypeError(f"loop() takes 1 to 3 positional arguments but {len(args)} were given")


def loop(*args, **kwargs):
    start, stop, step = _loop_range(args)
    if step == 0:
        raise ValueError("loop() step must not be zero")
    values = builtins.range(start, stop, step)
    last = len(values) - 1
    for k, v in enumerate(values):
        yield _LoopIndex(v, k == 0, k == last)


def loop_unroll(*args, **kwargs):
    start, stop, step = _loop_range(args)
    factors = sorted(set(kwargs.pop("unroll_list", [1])), reverse=True)
    if 1 not in factors:
        factors.append(1)
    next_start = start
    for p in factors:
        stride = step * p
        left = (stop - start) % stride
        for idx in loop(next_start, stop - left, stride, **kwargs):
            yield (idx, p)
        next_start = stop - left


def is_loop_begin(scalar):
    return bool(getattr(scalar, "begin", False))


def is_loop_end(scalar):
    return bool(getattr(scalar, "end", False))


def cond(scalar, file=None, lineno=None):
    return bool(scalar)


def min(a, b):
    return builtins.min(_index(a), _index(b))


def max(a, b):
    return builtins.max(_index(a), _index(b))


def ceildiv(a, b):
    return -(-_index(a) // _index(b))


def set_vec_tile_shapes(*shapes):
    _sim.set_vec_tile(_ints(shapes))


def get_vec_tile_shapes():
    return list(_sim.vec_tile())


_cube_tiles = []


def set_cube_tile_shapes(m, k, n, enable_split_k=False):
    _cube_tiles[:] = [list(m), list(k), list(n)]


def get_cube_tile_shapes():
    return list(_cube_tiles)


def _recorder(name):
    def record(*args, **kwargs):
        _recorded_options.append((name, args, kwargs))
    record.__name__ = name
    return record


set_pass_options = _recorder("set_pass_options")
set_host_options = _recorder("set_host_options")
set_codegen_options = _recorder("set_codegen_options")
set_verify_options = _recorder("set_verify_options")
set_debug_options = _recorder("set_debug_options")
set_runtime_options = _recorder("set_runtime_options")
set_print_options = _recorder("set_print_options")
set_semantic_label = _recorder("set_semantic_label")
set_conv_tile_shapes = _recorder("set_conv_tile_shapes")
set_matrix_size = _recorder("set_matrix_size")
set_options = _recorder("set_options")
set_global_config = _recorder("set_global_config")
set_pass_config = _recorder("set_pass_config")
set_pass_default_config = _recorder("set_pass_default_config")
reset_options = _recorder("reset_options")


def _getter(name):
    def get(*args, **kwargs):
        return {}
    get.__name__ = name
    return get


get_pass_options = _getter("get_pass_options")
get_host_options = _getter("get_host_options")
get_codegen_options = _getter("get_codegen_options")
get_verify_options = _getter("get_verify_options")
get_debug_options = _getter("get_debug_options")


class options:
    """`@pypto.options(...)` and `with pypto.options(...)`: recorded, not needed to simulate."""

    def __init__(self, name='', codegen_options=None, host_options=None, pass_options=None, runtime_options=None,
                 verify_options=None, operation_options=None, debug_options=None, vec_tile_shapes=None,
                 cube_tile_shapes=None, conv_tile_shapes=None, matrix_size=None):
        self.vec_tile_shapes = vec_tile_shapes
        _recorded_options.append(("options", (name,), {"pass_options": pass_options, "runtime_options": runtime_options}))

    def __call__(self, fn):
        return fn

    def __enter__(self):
        if self.vec_tile_shapes is not None and _sim.running():
            set_vec_tile_shapes(*self.vec_tile_shapes)
        return self

    def __exit__(self, *exc):
        return False


def pass_verify_print(*values, cond=1):
    pass


def pass_verify_save(tensor, fname, cond=1, **kwargs):
    pass
