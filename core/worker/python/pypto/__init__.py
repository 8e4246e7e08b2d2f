"""The workbench's `pypto`: PyPTO's public API, run eagerly on the CPU by the workbench
simulator. Names, parameters and defaults follow PyPTO's; see docs/kernels-and-simulator.md."""
from pypto._dtypes import DataType
from pypto._enums import CastMode, PrecisionType, RunMode, SaturationMode, TileOpFormat, TopKAlgo
from pypto._symbolic import DYNAMIC, STATIC, SymbolicScalar, SymInt
from pypto._tensor import SimulatorError, Tensor, TensorAnnotation
from pypto._ops import *  # noqa: F401,F403
from pypto._ops import abs, pow, round, sum  # noqa: F401
from pypto._control import *  # noqa: F401,F403
from pypto._control import min, max  # scalar min/max shadow the builtins, as in PyPTO
from pypto import frontend, experimental

for _d in DataType:
    globals()[_d.name] = _d
del _d

jit = frontend.jit
tensor = Tensor
symbolic_scalar = SymbolicScalar
Element = float


def _unsupported(name):
    def stub(*args, **kwargs):
        raise SimulatorError(f"not supported by the simulator: pypto.{name}")
    stub.__name__ = name
    stub._ptowb_unsupported = True
    return stub


# PyPTO functions the simulator does not run: calling one is an error at the calling line.
_NOT_SIMULATED = (
    "conv", "scaled_mm", "quantize", "dequantize", "quant_mx", "uniform", "normal", "sort32", "mrgsort", "gathermask",
    "interleave", "deinterleave", "pack", "unpack", "atomic_add", "index_put_", "index_add", "index_add_", "triu", "tril",
    "gcd", "expand_exp_dif", "fillpad", "create_shmem_tensor", "create_shmem_signal", "shmem_view", "shmem_put",
    "shmem_get", "shmem_signal", "shmem_wait_until", "shmem_barrier_all", "shmem_clear_data", "shmem_clear_signal",
    "my_symbolic_pe", "from_torch", "verify", "set_verify_golden_data", "cumsum", "cumprod",
)
for _name in _NOT_SIMULATED:
    if _name not in globals():
        globals()[_name] = _unsupported(_name)
del _name
