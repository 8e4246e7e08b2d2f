"""Option enums of PyPTO's API that kernels pass to ops; the simulator reads only CastMode."""
import enum


class PrecisionType(enum.Enum):
    INTRINSIC = "intrinsic"
    HIGH_PRECISION = "high_precision"
    HIGH_PERFORMANCE = "high_performance"


class CastMode(enum.Enum):
    CAST_NONE = "rint"
    CAST_RINT = "rint"
    CAST_ROUND = "round"
    CAST_FLOOR = "floor"
    CAST_CEIL = "ceil"
    CAST_TRUNC = "trunc"
    CAST_ODD = "rint"


class SaturationMode(enum.Enum):
    OFF = 0
    ON = 1


class TopKAlgo(enum.Enum):
    MERGE_SORT = 0
    RADIX_SORT = 1


class RunMode(enum.IntEnum):
    NPU = 0
    SIM = 1


class TileOpFormat(enum.Enum):
    TILEOP_ND = 0
    TILEOP_NZ = 1
