"""PyPTO's dtypes, and the workbench dtype each one is simulated as (None: not simulated)."""
import enum

from pypto._errors import category


class DataType(enum.Enum):
    """pypto.DataType; each value is the workbench dtype a simulated dtype is computed in, or a
    name of its own for one the simulator lacks."""

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
    DT_FP4_E2M1X2 = "fp4_e2m1x2"
    DT_FP4_E1M2X2 = "fp4_e1m2x2"
    DT_FP4_E2M1 = "fp4_e2m1"
    DT_FP4_E1M2 = "fp4_e1m2"
    DT_BOTTOM = "bottom"

    def __repr__(self):
        return "pypto." + self.name


_SIMULATED = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"}

# The dtypes torch has no type for, whose data PyPTO's jit takes in a torch.uint8 tensor (entry.py's
# _special_dtype_dict; an FP4 tensor's last dim then counts two elements per byte).
PACKED_IN_UINT8 = {
    DataType.DT_HF8,
    DataType.DT_FP4_E2M1X2,
    DataType.DT_FP4_E1M2X2,
    DataType.DT_FP4_E2M1,
    DataType.DT_FP4_E1M2,
}
_BY_SIM_NAME = {d.value: d for d in DataType if d.value in _SIMULATED}

# pypto.bytes_of: PyPTO's storage size of one element (sub-byte types count as one byte, as there).
_BYTES = {
    "int4": 1,
    "int8": 1,
    "int16": 2,
    "int32": 4,
    "int64": 8,
    "fp8": 1,
    "float16": 2,
    "float32": 4,
    "bfloat16": 2,
    "hf4": 1,
    "hf8": 1,
    "uint8": 1,
    "uint16": 2,
    "uint32": 4,
    "uint64": 8,
    "bool": 1,
    "float64": 8,
    "fp8e4m3": 1,
    "fp8e5m2": 1,
    "fp8e8m0": 1,
    "fp4_e2m1x2": 1,
    "fp4_e1m2x2": 1,
    "fp4_e2m1": 1,
    "fp4_e1m2": 1,
}


def sim_dtype(dtype):
    """The workbench dtype name of a pypto dtype; an error names a dtype the simulator lacks."""
    if isinstance(dtype, DataType):
        if dtype.value not in _SIMULATED:
            from pypto._errors import SimulatorError, not_simulated_message

            raise SimulatorError(not_simulated_message(dtype.name))
        return dtype.value
    raise TypeError(f"expected a pypto dtype such as pypto.DT_FP32, got {dtype!r}")


def dtype_of(sim_name):
    return _BY_SIM_NAME[sim_name]


@category("control")
def bytes_of(dtype):
    if not isinstance(dtype, DataType) or dtype.value not in _BYTES:
        raise ValueError(f"pypto.bytes_of needs a pypto dtype with a size, got {dtype!r}")
    return _BYTES[dtype.value]
