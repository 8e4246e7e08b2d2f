"""The workbench's `pypto`: PyPTO's public API, run eagerly on the CPU by the workbench
simulator. Names, parameters and defaults follow PyPTO's (PyPI's 0.2.0 and hicann/pypto's
HEAD; tests/data/pypto_api/public_api.json lists them); a name the simulator does not run exists
and reports "not supported by the simulator: pypto.X" when used. See docs/kernels-and-simulator.md."""
from pypto._dtypes import DataType, bytes_of  # noqa: F401
from pypto._enums import (  # noqa: F401
    AtomicRMWMode,
    AtomicType,
    CachePolicy,
    CastMode,
    CompStage,
    DequantScaleRoundingMode,
    LogLevel,
    OpType,
    OutType,
    PassConfigKey,
    PrecisionType,
    ReduceMode,
    ReLuType,
    RunMode,
    SatStatus,
    SaturationMode,
    ScatterMode,
    StatusType,
    TileOpFormat,
    TopKAlgo,
    TransMode,
)
from pypto._symbolic import DYN, DYNAMIC, STATIC, SymbolicScalar, SymInt  # noqa: F401
from pypto._tensor import Element, Tensor  # noqa: F401

# Imported before `tensor = Tensor` below, as PyPTO's package does: the submodule stays in
# sys.modules for `from pypto.tensor import TensorAnnotation`, the attribute is the class.
from pypto import tensor as _tensor_module  # noqa: F401,E402
from pypto.op import *  # noqa: F401,F403 - pypto.add is pypto.op.add, and pypto.distributed exists
from pypto._ops import assemble, atomic_add, clone, reshape, rms_norm, sigmoid, softmax, unsqueeze, view  # noqa: F401
from pypto._ops import abs, pow, round, sum  # noqa: F401 - shadow the builtins, as in PyPTO
from pypto._control import (  # noqa: F401
    ConfigScope,
    ConvTile,
    CubeTile,
    Function,
    InternalError,
    PassConfigs,
    ceildiv,
    check,
    cond,
    from_torch,
    function,
    get_codegen_options,
    get_conv_tile_shapes,
    get_cube_tile_shapes,
    get_current_function,
    get_current_scope,
    get_debug_options,
    get_global_config,
    get_host_options,
    get_last_function,
    get_log_level,
    get_options_tree,
    get_pass_config,
    get_pass_configs,
    get_pass_default_config,
    get_pass_options,
    get_vec_tile_shapes,
    get_verify_options,
    internal_check,
    is_loop_begin,
    is_loop_end,
    log_debug,
    log_error,
    log_event,
    log_fatal,
    log_info,
    log_warn,
    loop,
    loop_unroll,
    options,
    platform,
    raise_error,
    reset_options,
    set_codegen_options,
    set_conv_tile_shapes,
    set_cube_tile_shapes,
    set_debug_options,
    set_global_config,
    set_host_options,
    set_log_level,
    set_matrix_size,
    set_options,
    set_pass_config,
    set_pass_default_config,
    set_pass_options,
    set_print_options,
    set_semantic_label,
    set_vec_tile_shapes,
    set_verify_golden_data,
    set_verify_options,
    verify,
)
from pypto._control import min, max  # noqa: F401 - scalar min/max shadow the builtins, as in PyPTO
from pypto import error, experimental, frontend, pypto_impl, runtime  # noqa: F401

for _d in DataType:
    globals()[_d.name] = _d
del _d
ROUND_UP = DequantScaleRoundingMode.ROUND_UP
ROUND_DOWN = DequantScaleRoundingMode.ROUND_DOWN

jit = frontend._package_jit
tensor = Tensor
element = Element
symbolic_scalar = SymbolicScalar
