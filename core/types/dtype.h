#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ptowb {

enum class DType : std::uint8_t
{
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    BFloat16,
    Float32,
    Float64,
};

enum class DTypeKind : std::uint8_t
{
    Bool,
    Integer,
    Floating
};

// The one type-mapping table: every generator and loader reads dtype facts from here.
struct DTypeInfo
{
    DType dtype;
    std::string_view name;      // op.json / rule language / run.json name ("float16")
    std::string_view torchName; // Python: torch.<torchName>
    std::string_view torchCpp;  // C++: at::ScalarType enumerator ("Half")
    std::string_view pypto;     // pypto.DT_*
    int onnxElementType;        // onnx::TensorProto_DataType value
    std::string_view onnxName;  // TensorProto enumerator name
    std::string_view cann;      // ge::DataType enumerator ("DT_FLOAT16")
    std::string_view cannIni;   // op info .ini / msOpGen name ("float16", "float")
    std::string_view npyDescr;  // NumPy descr, little-endian ("<f2"); bfloat16 is stored as "<u2"
    int itemSize;
    DTypeKind kind;
    std::string_view cppEnum; // ptowb::DType enumerator, for generated C++ ("Float16")
    int significandBits;      // of a floating dtype, the implicit bit included (float16: 11); 0
};

std::span<const DTypeInfo> allDTypes();
const DTypeInfo& dtypeInfo(DType dtype);
std::optional<DType> dtypeFromName(std::string_view name);
std::optional<DType> dtypeFromPypto(std::string_view pyptoName);
// ONNX's spelling in type constraints: "tensor(float16)".
std::string onnxTensorType(DType dtype);

inline std::string_view dtypeName(DType dtype)
{
    return dtypeInfo(dtype).name;
}
inline bool isFloating(DType dtype)
{
    return dtypeInfo(dtype).kind == DTypeKind::Floating;
}

// torch's type promotion for two tensors of the same category rank (no scalars involved).
DType promoteTypes(DType a, DType b);

// Parameter types of op.json ("int[]" ...), with their spelling in each framework.
enum class ParamType : std::uint8_t
{
    Bool,
    Int,
    Float,
    Str,
    IntList,
    FloatList
};

struct ParamTypeInfo
{
    ParamType type;
    std::string_view name;            // op.json spelling
    std::string_view torchSchema;     // torch schema type
    std::string_view onnxAttr;        // ONNX attribute kind ("i", "ints", ...)
    std::string_view cann;            // REG_OP attribute type ("ListInt")
    std::string_view torchCppArg;     // C++ kernel argument type in a TORCH_LIBRARY op
    std::string_view torchOnnxArg;    // torch.onnx parse_args descriptor ("i", "fs", ...)
    std::string_view torchOnnxSuffix; // g.op attribute suffix: bool travels as an int
    std::string_view cppValue;        // C++ type of the value in generated code
    std::string_view cannIni;         // op info .ini / msOpGen attribute type ("listInt")
    std::string_view onnxAttrType;    // onnx::AttributeProto enumerator ("INTS")
};

std::span<const ParamTypeInfo> allParamTypes();
const ParamTypeInfo& paramTypeInfo(ParamType type);
std::optional<ParamType> paramTypeFromName(std::string_view name);

} // namespace ptowb
