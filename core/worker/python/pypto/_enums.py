"""Option enums of PyPTO's API, with PyPTO's member names. Kernels pass them to ops and options;
the simulator reads CastMode (casts), TopKAlgo and the rest only as recorded options."""
import enum


def _repr(self):
    return f"{type(self).__name__}.{self.name}"


class _Enum(enum.Enum):
    __repr__ = _repr
    __str__ = _repr


class PrecisionType(_Enum):
    INTRINSIC = 0
    HIGH_PRECISION = 1


class CastMode(_Enum):
    CAST_NONE = 0
    CAST_RINT = 1  # to nearest, ties to even
    CAST_ROUND = 2  # to nearest, ties away from zero
    CAST_FLOOR = 3
    CAST_CEIL = 4
    CAST_TRUNC = 5
    CAST_ODD = 6  # to odd (von Neumann)


# How the simulator's cast rounds for each mode (CAST_NONE rounds to nearest even, as a plain
# conversion does); CAST_ODD has no simulated rounding.
SIM_CAST_MODE = {
    CastMode.CAST_NONE: "rint",
    CastMode.CAST_RINT: "rint",
    CastMode.CAST_ROUND: "round",
    CastMode.CAST_FLOOR: "floor",
    CastMode.CAST_CEIL: "ceil",
    CastMode.CAST_TRUNC: "trunc",
}


class SaturationMode(_Enum):
    OFF = 0
    ON = 1


class TopKAlgo(_Enum):
    MERGE_SORT = 0
    RADIX_SELECT = 1


class TileOpFormat(_Enum):
    TILEOP_ND = 0
    TILEOP_NZ = 1


class CachePolicy(_Enum):
    NONE_CACHEABLE = 0


class ReduceMode(_Enum):
    ATOMIC_ADD = 0


class OpType(_Enum):
    EQ = 0
    NE = 1
    LT = 2
    LE = 3
    GT = 4
    GE = 5


class OutType(_Enum):
    BOOL = 0
    BIT = 1


class ReLuType(_Enum):
    NO_RELU = 0
    RELU = 1


class TransMode(_Enum):
    CAST_NONE = 0
    CAST_RINT = 1
    CAST_ROUND = 2


class ScatterMode(_Enum):
    NONE = 0
    ADD = 1
    MULTIPLY = 2


class AtomicRMWMode(_Enum):
    ADD = 0
    MIN = 1
    MAX = 2


class AtomicType(_Enum):
    SET = 0
    ADD = 1


class DequantScaleRoundingMode(_Enum):
    ROUND_UP = 0
    ROUND_DOWN = 1


class SatStatus(_Enum):
    SAT = 0
    UNSAT = 1
    UNKNOWN = 2


class LogLevel(enum.IntEnum):
    DEBUG = 0
    INFO = 1
    WARN = 2
    ERROR = 3
    FATAL = 4
    EVENT = 5


class CompStage(_Enum):
    ALL_COMPLETE = 0
    TENSOR_GRAPH = 1
    TILE_GRAPH = 2
    EXECUTE_GRAPH = 3
    CODEGEN_INSTRUCTION = 4
    CODEGEN_BINARY = 5


class PassConfigKey(_Enum):
    KEY_DUMP_GRAPH = 0


class StatusType(_Enum):
    """What a dim of a shape annotation says: DYNAMIC / DYN (any size, bound at the call) or
    STATIC (fixed by the first call)."""

    DYN = "DYN"
    DYNAMIC = "DYNAMIC"
    STATIC = "STATIC"


class RunMode(enum.IntEnum):
    NPU = 0
    SIM = 1
