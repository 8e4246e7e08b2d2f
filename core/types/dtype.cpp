#include "types/dtype.h"

#include <array>

namespace ptowb {
namespace {

constexpr std::array kDTypes{
    DTypeInfo{DType::Bool, "bool", "bool", "Bool", "DT_BOOL", 9, "BOOL", "DT_BOOL", "bool", "|b1",
              1, DTypeKind::Bool, "Bool", 0},
    DTypeInfo{DType::UInt8, "uint8", "uint8", "Byte", "DT_UINT8", 2, "UINT8", "DT_UINT8", "uint8",
              "|u1", 1, DTypeKind::Integer, "UInt8", 0},
    DTypeInfo{DType::Int8, "int8", "int8", "Char", "DT_INT8", 3, "INT8", "DT_INT8", "int8", "|i1",
              1, DTypeKind::Integer, "Int8", 0},
    DTypeInfo{DType::Int16, "int16", "int16", "Short", "DT_INT16", 5, "INT16", "DT_INT16", "int16",
              "<i2", 2, DTypeKind::Integer, "Int16", 0},
    DTypeInfo{DType::Int32, "int32", "int32", "Int", "DT_INT32", 6, "INT32", "DT_INT32", "int32",
              "<i4", 4, DTypeKind::Integer, "Int32", 0},
    DTypeInfo{DType::Int64, "int64", "int64", "Long", "DT_INT64", 7, "INT64", "DT_INT64", "int64",
              "<i8", 8, DTypeKind::Integer, "Int64", 0},
    DTypeInfo{DType::Float16, "float16", "float16", "Half", "DT_FP16", 10, "FLOAT16", "DT_FLOAT16",
              "float16", "<f2", 2, DTypeKind::Floating, "Float16", 11},
    DTypeInfo{DType::BFloat16, "bfloat16", "bfloat16", "BFloat16", "DT_BF16", 16, "BFLOAT16",
              "DT_BF16", "bfloat16", "<u2", 2, DTypeKind::Floating, "BFloat16", 8},
    DTypeInfo{DType::Float32, "float32", "float32", "Float", "DT_FP32", 1, "FLOAT", "DT_FLOAT",
              "float", "<f4", 4, DTypeKind::Floating, "Float32", 24},
    DTypeInfo{DType::Float64, "float64", "float64", "Double", "DT_DOUBLE", 11, "DOUBLE",
              "DT_DOUBLE", "double", "<f8", 8, DTypeKind::Floating, "Float64", 53},
};

constexpr std::array kParamTypes{
    ParamTypeInfo{ParamType::Bool, "bool", "bool", "i", "Bool", "bool", "b", "i", "bool", "bool",
                  "INT"},
    ParamTypeInfo{ParamType::Int, "int", "int", "i", "Int", "int64_t", "i", "i", "std::int64_t",
                  "int", "INT"},
    ParamTypeInfo{ParamType::Float, "float", "float", "f", "Float", "double", "f", "f", "double",
                  "float", "FLOAT"},
    ParamTypeInfo{ParamType::Str, "str", "str", "s", "String", "c10::string_view", "s", "s",
                  "std::string", "str", "STRING"},
    ParamTypeInfo{ParamType::IntList, "int[]", "int[]", "ints", "ListInt", "c10::IntArrayRef", "is",
                  "i", "std::vector<std::int64_t>", "listInt", "INTS"},
    ParamTypeInfo{ParamType::FloatList, "float[]", "float[]", "floats", "ListFloat",
                  "c10::ArrayRef<double>", "fs", "f", "std::vector<double>", "listFloat", "FLOATS"},
};

// Position in torch's promotion lattice: a higher rank wins within the same kind.
int promotionRank(DType d)
{
    switch (d) {
    case DType::Bool:
        return 0;
    case DType::UInt8:
        return 1;
    case DType::Int8:
        return 1;
    case DType::Int16:
        return 2;
    case DType::Int32:
        return 3;
    case DType::Int64:
        return 4;
    case DType::Float16:
        return 5;
    case DType::BFloat16:
        return 5;
    case DType::Float32:
        return 6;
    case DType::Float64:
        return 7;
    }
    return 0;
}

} // namespace

std::span<const DTypeInfo> allDTypes()
{
    return kDTypes;
}

const DTypeInfo& dtypeInfo(DType dtype)
{
    return kDTypes[std::size_t(dtype)];
}

std::optional<DType> dtypeFromName(std::string_view name)
{
    for (const auto& info : kDTypes)
        if (info.name == name) return info.dtype;
    return std::nullopt;
}

std::optional<DType> dtypeFromPypto(std::string_view pyptoName)
{
    for (const auto& info : kDTypes)
        if (info.pypto == pyptoName) return info.dtype;
    return std::nullopt;
}

std::string onnxTensorType(DType dtype)
{
    std::string name(dtypeInfo(dtype).onnxName);
    for (char& c : name)
        c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return "tensor(" + name + ")";
}

DType promoteTypes(DType a, DType b)
{
    if (a == b) return a;
    // The two pairs that torch promotes to a third type.
    if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8))
        return DType::Int16;
    if ((a == DType::Float16 && b == DType::BFloat16) ||
        (a == DType::BFloat16 && b == DType::Float16))
        return DType::Float32;
    return promotionRank(a) >= promotionRank(b) ? a : b;
}

std::span<const ParamTypeInfo> allParamTypes()
{
    return kParamTypes;
}

const ParamTypeInfo& paramTypeInfo(ParamType type)
{
    return kParamTypes[std::size_t(type)];
}

std::optional<ParamType> paramTypeFromName(std::string_view name)
{
    for (const auto& info : kParamTypes)
        if (info.name == name) return info.type;
    return std::nullopt;
}

} // namespace ptowb
