"""Control flow, tiling, options, configuration and logging of PyPTO's API, run eagerly: loops
yield concrete indices, options are accepted and recorded for the run record."""
import builtins as _builtins
import contextlib as _contextlib

import _ptowb_sim as _sim

from pypto._enums import LogLevel
from pypto import _loop_tensors
from pypto._errors import category, not_simulated, not_simulated_class
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


@category("control")
def loop(*args, **kwargs):
    start, stop, step = _loop_range(args)
    if step == 0:
        raise ValueError("loop() step must not be zero")
    values = _builtins.range(start, stop, step)
    last = len(values) - 1
    run = _sim.begin_loop()  # the cost estimate overlaps the iterations, as PyPTO runs them
    # A loop is a configuration scope in PyPTO (BeginScope/EndScope): tile shapes set inside it
    # are undone when it ends, so the next loop starts from the ones set before.
    tiles = (list(_sim.vec_tile()), list(_cube_tiles))
    body = _loop_tensors.begin()
    try:
        for k, v in enumerate(values):
            _sim.next_iteration(run)
            _loop_tensors.next_iteration(body)
            yield _LoopIndex(v, k == 0, k == last)
    finally:
        _loop_tensors.end(body)
        _sim.end_loop(run)
        _sim.set_vec_tile(tiles[0])
        _cube_tiles[:] = tiles[1]


@category("control")
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


@category("control")
def is_loop_begin(scalar):
    return bool(getattr(scalar, "begin", False))


@category("control")
def is_loop_end(scalar):
    return bool(getattr(scalar, "end", False))


@category("control")
def cond(scalar, file=None, lineno=None):
    if (file is None) != (lineno is None):
        raise ValueError("file and lineno must be provided together or omitted")
    return bool(scalar)


@category("control")
@_contextlib.contextmanager
def function(name, *args):
    """`with pypto.function("MAIN", a, b):` names a graph function in PyPTO; here the body just runs."""
    yield None


@category("control")
def min(a, b):
    return _builtins.min(_index(a), _index(b))


@category("control")
def max(a, b):
    return _builtins.max(_index(a), _index(b))


@category("control")
def ceildiv(a, b):
    return -(-_index(a) // _index(b))


# --- tiling (_controller.py) ---
@category("control")
def set_vec_tile_shapes(*shapes):
    _sim.set_vec_tile(_ints(shapes))


@category("control")
def get_vec_tile_shapes():
    return list(_sim.vec_tile())


_cube_tiles = []


@category("control")
def set_cube_tile_shapes(m, k, n, enable_split_k=False):
    _cube_tiles[:] = [list(m), list(k), list(n), bool(enable_split_k)]


@category("control")
def get_cube_tile_shapes():
    return tuple(_cube_tiles)


_conv_tiles = []


@category("option")
def set_conv_tile_shapes(tile_l1_info, tile_l0_info=None):
    _conv_tiles[:] = [tile_l1_info, tile_l0_info, tile_l0_info is not None]


@category("option")
def get_conv_tile_shapes():
    return tuple(_conv_tiles)


@category("option")
def set_matrix_size(size):
    _recorded_options.append(("set_matrix_size", (size,), {}))


# --- options (config.py): recorded, and read back by the getters ---
_options = {}


def _record(group, kwargs):
    _recorded_options.append((group, (), kwargs))
    _options.setdefault(group, {}).update({k: v for k, v in kwargs.items() if v is not None})


def _recorded(group):
    return dict(_options.get(group, {}))


@category("option")
def set_print_options(*, edgeitems=3, precision=4, threshold=10, linewidth=10):
    _record("print", dict(edgeitems=edgeitems, precision=precision, threshold=threshold, linewidth=linewidth))


@category("option")
def set_pass_options(
    *,
    pg_skip_partition=None,
    pg_upper_bound=None,
    vec_nbuffer_setting=None,
    cube_l1_reuse_setting=None,
    cube_nbuffer_setting=None,
    sg_set_scope=None,
    sg_set_ooo_scope=None,
    ooo_sched_mode=None,
    auto_mix_partition=None,
    sg_set_tunevf_mode=None,
    enable_slice=None,
):
    _record("pass", dict(locals()))


@category("option")
def get_pass_options():
    return _recorded("pass")


@category("option")
def set_host_options(
    *,
    compile_stage=None,
    compile_monitor_enable=None,
    compile_timeout=None,
    compile_timeout_stage=None,
    compile_monitor_print_interval=None,
):
    _record("host", dict(locals()))


@category("option")
def get_host_options():
    return _recorded("host")


@category("option")
def set_codegen_options(*, support_dynamic_aligned=None, soc_version=None, enable_pmu_trace=None, vf_options=None):
    _record("codegen", dict(locals()))


@category("option")
def get_codegen_options():
    return _recorded("codegen")


@category("option")
def set_verify_options(
    *,
    enable_pass_verify=None,
    pass_verify_save_tensor=None,
    pass_verify_save_tensor_dir=None,
    pass_verify_pass_filter=None,
    pass_verify_error_tol=None,
):
    _record("verify", dict(locals()))


@category("option")
def get_verify_options():
    return _recorded("verify")


@category("option")
def set_debug_options(*, compile_debug_mode=None, runtime_debug_mode=None, dump_pass_graph=None):
    _record("debug", dict(locals()))


@category("option")
def get_debug_options():
    return _recorded("debug")


@category("option")
def set_semantic_label(label):
    _recorded_options.append(("set_semantic_label", (label,), {}))


@category("option")
def reset_options():
    _options.clear()


@category("option")
def get_global_config(key):
    return _options.get("global", {}).get(key)


@category("option")
def set_global_config(key, value):
    _record("global", {key: value})


@category("option")
def set_options(
    codegen_options=None,
    host_options=None,
    pass_options=None,
    runtime_options=None,
    verify_options=None,
    debug_options=None,
    operation_options=None,
    vec_tile_shapes=None,
    cube_tile_shapes=None,
    conv_tile_shapes=None,
    matrix_size=None,
):
    for group, values in (
        ("codegen", codegen_options),
        ("host", host_options),
        ("pass", pass_options),
        ("runtime", runtime_options),
        ("verify", verify_options),
        ("debug", debug_options),
        ("operation", operation_options),
    ):
        if values:
            _record(group, dict(values))
    if vec_tile_shapes is not None and _sim.running():
        set_vec_tile_shapes(*vec_tile_shapes)
    if cube_tile_shapes is not None:
        _cube_tiles[:] = _cube_tile_values(cube_tile_shapes)


def _cube_tile_values(value):
    if isinstance(value, CubeTile):
        return [value.m, value.k, value.n, value.enable_split_k]
    return list(value) + [False] * (4 - len(value))


@category("option")
def get_options_tree():
    return {group: dict(values) for group, values in _options.items()}


class options:
    """`@pypto.options(...)` and `with pypto.options(...)`: recorded, not needed to simulate."""

    def __init__(
        self,
        name="",
        codegen_options=None,
        host_options=None,
        pass_options=None,
        runtime_options=None,
        verify_options=None,
        operation_options=None,
        debug_options=None,
        vec_tile_shapes=None,
        cube_tile_shapes=None,
        conv_tile_shapes=None,
        matrix_size=None,
    ):
        self.vec_tile_shapes = vec_tile_shapes
        self.cube_tile_shapes = cube_tile_shapes
        _recorded_options.append(
            ("options", (name,), {"pass_options": pass_options, "runtime_options": runtime_options})
        )

    def __call__(self, fn):
        return fn

    def __enter__(self):
        if self.vec_tile_shapes is not None and _sim.running():
            set_vec_tile_shapes(*self.vec_tile_shapes)
        if self.cube_tile_shapes is not None:
            _cube_tiles[:] = _cube_tile_values(self.cube_tile_shapes)
        return self

    def __exit__(self, *exc):
        return False


class CubeTile:
    """The matmul tile: m[0], k[0], n[0] for L0, m[1], k[1], n[1] for L1."""

    def __init__(self, m, k, n, enable_split_k=False):
        if len(m) != 2 or len(n) != 2 or len(k) not in (2, 3):
            raise ValueError(f"CubeTile needs two m, two or three k and two n values, got {m}, {k}, {n}")
        self.m, self.k, self.n, self.enable_split_k = list(m), list(k), list(n), bool(enable_split_k)

    def __repr__(self):
        return f"CubeTile(m={self.m}, k={self.k}, n={self.n}, enable_split_k={self.enable_split_k})"


class ConvTile:
    """The conv tile (recorded; pypto.conv is not simulated)."""

    def __init__(self, tile_l1_info, tile_l0_info, set_l0_tile=False):
        self.tile_l1_info, self.tile_l0_info, self.set_l0_tile = tile_l1_info, tile_l0_info, set_l0_tile


ConfigScope = not_simulated_class("ConfigScope")
get_current_scope = not_simulated("get_current_scope", "", "option")


# --- pass configuration (pass_config.py) ---
class PassConfigs:
    """The switches of one pass, as pypto.get_pass_configs returns them."""

    def __init__(self, values=None):
        values = values or {}
        for key in (
            "printGraph",
            "dumpGraph",
            "dumpPassTimeCost",
            "preCheck",
            "postCheck",
            "disablePass",
            "healthCheck",
        ):
            setattr(self, key, bool(values.get(key, False)))


_pass_configs = {}


@category("option")
def set_pass_default_config(key, value):
    _pass_configs[(None, None, key)] = value


@category("option")
def get_pass_default_config(key, default_value):
    return _pass_configs.get((None, None, key), default_value)


@category("option")
def set_pass_config(strategy, identifier, key, value):
    _pass_configs[(strategy, identifier, key)] = value


@category("option")
def get_pass_config(strategy, identifier, key, default_value):
    return _pass_configs.get((strategy, identifier, key), get_pass_default_config(key, default_value))


@category("option")
def get_pass_configs(strategy, identifier):
    dump = get_pass_config(strategy, identifier, "KEY_DUMP_GRAPH", False)
    return PassConfigs({"dumpGraph": dump})


# --- graph functions and verification (functions.py, runtime.py, converter.py): graph mode only ---
Function = not_simulated_class("Function")
get_current_function = not_simulated("get_current_function", "", "option")
get_last_function = not_simulated("get_last_function", "", "option")
verify = not_simulated(
    "verify",
    "func, inputs, outputs, goldens, *args, codegen_options=None, host_options=None, "
    "pass_options=None, verify_options=None, **kwargs",
    "option",
)


@category("option")
def set_verify_golden_data(in_out_tensors=None, goldens=None):
    """Goldens for PyPTO's pass verification, one per tensor argument of the next kernel call (None
    skips one). The simulator runs no compiler passes to verify, so they are checked for their form
    and kept for the run record; import reads them as what the test expects."""
    for kind, values in (("in_out_tensors", in_out_tensors), ("goldens", goldens)):
        if values is not None and not isinstance(values, (list, tuple)):
            raise TypeError(f"set_verify_golden_data: {kind} must be a list, not {type(values).__name__}")
    _record("verify_goldens", {"count": len(goldens or ())})


from_torch = not_simulated("from_torch", "tensor, name='', dynamic_axis=None, tensor_format=None, dtype=None", "data")


class _Platform:
    """pypto.platform: the NPU architecture. Until a kernel sets one it is "DAV_2201" (910B/910C),
    what PyPTO reports without an NPU: its platform falls back to that arch for one it does not
    know, and pypto 0.2.0 on a plain CPU says so."""

    _arch = "DAV_2201"

    @property
    def npuarch(self):
        return self._arch

    @npuarch.setter
    def npuarch(self, value):
        self._arch = value


platform = _Platform()


# --- logging (logging.py) ---
class InternalError(Exception):
    """PyPTO's internal error (pypto.internal_check, raise_error("InternalError", ...))."""


_log_level = [LogLevel.INFO]


def _log(level, message):
    if level >= _log_level[0]:
        print(f"[pypto {level.name}] {message}")


@category("option")
def log_debug(message):
    _log(LogLevel.DEBUG, message)


@category("option")
def log_info(message):
    _log(LogLevel.INFO, message)


@category("option")
def log_warn(message):
    _log(LogLevel.WARN, message)


@category("option")
def log_error(message):
    _log(LogLevel.ERROR, message)


@category("option")
def log_fatal(message):
    _log(LogLevel.FATAL, message)


@category("option")
def log_event(message):
    _log(LogLevel.EVENT, message)


@category("option")
def set_log_level(level):
    _log_level[0] = LogLevel(level)


@category("option")
def get_log_level():
    return _log_level[0]


@category("control")
def raise_error(error_type, message):
    known = {"InternalError": InternalError}
    error = known.get(error_type) or getattr(_builtins, error_type, None)
    if not (isinstance(error, type) and issubclass(error, Exception)):
        error = RuntimeError
    raise error(message)


@category("control")
def check(condition, message):
    if not condition:
        raise_error("ValueError", message)


@category("control")
def internal_check(condition, message):
    if not condition:
        raise_error("InternalError", message)
