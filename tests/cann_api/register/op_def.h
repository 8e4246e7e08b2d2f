#ifndef PTOWB_CANN_API_REGISTER_OP_DEF_H
#define PTOWB_CANN_API_REGISTER_OP_DEF_H

// ops::OpDef, the Ascend C host definition of an op (register/op_def.h), and the kernel
// function types of register/op_impl_registry.h.
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/ascend_string.h"
#include "graph/operator.h"
#include "graph/types.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace gert {

typedef unsigned int UINT32;

struct OpImplKernelRegistry
{
    using InferShapeKernelFunc = UINT32 (*)(InferShapeContext*);
    using InferShapeRangeKernelFunc = UINT32 (*)(InferShapeRangeContext*);
    using InferDataTypeKernelFunc = UINT32 (*)(InferDataTypeContext*);
};

} // namespace gert

namespace ops {

enum Option
{
    IGNORE = 0,
    OPTIONAL = 1,
    REQUIRED = 2,
    DYNAMIC = 3
};

class OpParamDefImpl;
class OpParamDef
{
public:
    explicit OpParamDef(const char* name);
    OpParamDef(const OpParamDef& def);
    ~OpParamDef();
    OpParamDef& operator=(const OpParamDef& def);
    OpParamDef& ParamType(Option param_type);
    OpParamDef& DataType(std::vector<ge::DataType> types);
    OpParamDef& Format(std::vector<ge::Format> formats);
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats);
    OpParamDef& ValueDepend(Option value_depend);

private:
    std::unique_ptr<OpParamDefImpl> impl_;
};

class OpAttrDefImpl;
class OpAttrDef
{
public:
    explicit OpAttrDef(const char* name);
    OpAttrDef(const OpAttrDef& attr_def);
    ~OpAttrDef();
    OpAttrDef& operator=(const OpAttrDef& attr_def);
    OpAttrDef& AttrType(Option attr_type);
    OpAttrDef& Bool(void);
    OpAttrDef& Bool(bool value);
    OpAttrDef& Float(void);
    OpAttrDef& Float(float value);
    OpAttrDef& Int(void);
    OpAttrDef& Int(std::int64_t value);
    OpAttrDef& String(void);
    OpAttrDef& String(const char* value);
    OpAttrDef& ListBool(void);
    OpAttrDef& ListBool(std::vector<bool> value);
    OpAttrDef& ListFloat(void);
    OpAttrDef& ListFloat(std::vector<float> value);
    OpAttrDef& ListInt(void);
    OpAttrDef& ListInt(std::vector<std::int64_t> value);

private:
    std::unique_ptr<OpAttrDefImpl> impl_;
};

class OpAICoreDefImpl;
class OpAICoreDef
{
public:
    OpAICoreDef();
    OpAICoreDef(const OpAICoreDef& aicore_def);
    ~OpAICoreDef();
    OpAICoreDef& operator=(const OpAICoreDef& aicore_def);
    OpAICoreDef& AddConfig(const char* soc);

private:
    std::unique_ptr<OpAICoreDefImpl> impl_;
};

class OpDefImpl;
class OpDef
{
public:
    explicit OpDef(const char* type);
    OpDef(const OpDef& op_def);
    ~OpDef();
    OpDef& operator=(const OpDef& op_def);
    OpParamDef& Input(const char* name);
    OpParamDef& Output(const char* name);
    OpAttrDef& Attr(const char* name);
    OpDef& SetInferShape(gert::OpImplKernelRegistry::InferShapeKernelFunc func);
    OpDef& SetInferShapeRange(gert::OpImplKernelRegistry::InferShapeRangeKernelFunc func);
    OpDef& SetInferDataType(gert::OpImplKernelRegistry::InferDataTypeKernelFunc func);
    gert::OpImplKernelRegistry::InferShapeKernelFunc& GetInferShape(void);
    gert::OpImplKernelRegistry::InferShapeRangeKernelFunc& GetInferShapeRange(void);
    gert::OpImplKernelRegistry::InferDataTypeKernelFunc& GetInferDataType(void);
    ge::AscendString& GetOpType(void);
    OpAICoreDef& AICore(void);

private:
    std::unique_ptr<OpDefImpl> impl_;
};

} // namespace ops

#endif
