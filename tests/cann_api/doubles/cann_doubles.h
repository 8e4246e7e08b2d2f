#ifndef PTOWB_CANN_DOUBLES_H
#define PTOWB_CANN_DOUBLES_H

// Test doubles behind the declarations of tests/cann_api: just enough behaviour to run
// generated CANN code (an ONNX plugin's parse function, the graph's and the runtime's infer
// functions) in a test program. C++11, so they link with generated code built as CANN builds it.
#include "graph/operator_reg.h"
#include "register/op_def_registry.h"
#include "register/register.h"

#include <string>
#include <vector>

namespace ptowb_test {

// What REGISTER_CUSTOM_OP, COMMON_INFER_FUNC_REG and OP_ADD registered, by type.
domi::ParseParamByOpFunc parseFunction(const std::string& originOpType);
std::string parserOpType(const std::string& originOpType); // the om op type registered for it
ge::InferShapeFunc inferShapeFunction(const std::string& opType);
ge::Operator createOperator(const std::string& opType, const std::string& name);
bool hasOpDef(const std::string& opType);
ops::OpDef createOpDef(const std::string& opType);
gert::OpImplKernelRegistry::InferShapeKernelFunc runtimeInferShape(const std::string& opType);
gert::OpImplKernelRegistry::InferDataTypeKernelFunc runtimeInferDataType(const std::string& opType);

// One attribute as gert::RuntimeAttrs holds it; kind Absent gives a null pointer.
struct RuntimeAttr
{
    enum Kind
    {
        Absent,
        Bool,
        Int,
        Float,
        Str,
        Ints,
        Floats
    } kind;
    bool b;
    std::int64_t i;
    float f;
    std::string s;
    std::vector<std::int64_t> ints;
    std::vector<float> floats;
};
RuntimeAttr absent();
RuntimeAttr attrBool(bool v);
RuntimeAttr attrInt(std::int64_t v);
RuntimeAttr attrFloat(float v);
RuntimeAttr attrStr(const std::string& v);
RuntimeAttr attrInts(const std::vector<std::int64_t>& v);
RuntimeAttr attrFloats(const std::vector<float>& v);

// The inputs and attributes a runtime infer function sees, and the outputs it writes.
struct RuntimeCall
{
    std::vector<std::vector<std::int64_t>> inputShapes;
    std::vector<ge::DataType> inputDTypes;
    std::vector<RuntimeAttr> attrs;
    std::size_t outputs;
    std::vector<gert::Shape> outputShapes;
    std::vector<ge::DataType> outputDTypes;
};
ge::graphStatus callInferShape(gert::OpImplKernelRegistry::InferShapeKernelFunc f,
                               RuntimeCall& call);
ge::graphStatus callInferDataType(gert::OpImplKernelRegistry::InferDataTypeKernelFunc f,
                                  RuntimeCall& call);

// "[4, -1]" for dims.
std::string dimsText(const std::vector<std::int64_t>& dims);
std::string dimsText(const gert::Shape& shape);

} // namespace ptowb_test

#endif
