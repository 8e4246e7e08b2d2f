"""PyPTO's dtypes, and the workbench dtype each one is simulated as (None: not simulated)."""
import enum


class DataType(enum.Enum):
    DT_INT4 = "int4"
    DT_INT8 = "int8"
    DT_INT16 = "int16"
    DT_INT32 = "int32"
    DT_INT64 = "int64"
    DT_FP8 = "fp8"
    DT_FP16 = "float16"
    DT_FP32 = "float32"
    DT_BF16 = "bfloat16"
    DT_HF4 = "hf4"
    DT_HF8 = "hf8"
    DT_UINT8 = "uint8"
    DT_UINT16 = "uint16"
    DT_UINT32 = "uint32"
    DT_UINT64 = "uint64"
    DT_BOOL = "bool"
    DT_DOUBLE = "float64"
    DT_FP8E4M3 = "fp8e4m3"
    DT_FP8E5M2 = "fp8e5m2"
    DT_FP8E8M0 = "fp8e8m0"

    def __repr__(self):
        return "pypto." + self.name


_SIMULATED = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"}
_BY_SIM_NAME = {d.value: d for d in DataType if d.value in _SIMULATED}


def sim_dtype(dtype):
    """The workbench dtype name of a pypto dtype; an error names a dtype the simulator lacks."""
    if isinstance(dtype, DataType):
        if dtype.value not in _SIMULATED:
            from pypto._tensor import SimulatorError
            raise SimulatorError(f"not supported by the simulator: pypto.{dtype.name}")
        return dtype.value
    raise TypeError(f"expected a pypto dtype such as pypto.DT_FP32, got {dtype!r}")


def dtype_of(sim_name):
    return _BY_SIM_NAME[sim_name]
