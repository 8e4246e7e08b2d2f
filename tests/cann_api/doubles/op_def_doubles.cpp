// Doubles of the Ascend C host definition: ops::OpDef and its factory (OP_ADD without
// OP_PROTO_LIB), and gert::OpImplRegisterV2 (OP_ADD with it), keeping the infer functions.
#include "cann_doubles.h"

#include <map>

namespace gert {

class OpImplRegisterV2Impl
{
public:
    std::string type;
    OpImplKernelRegistry::InferShapeKernelFunc inferShape = nullptr;
    OpImplKernelRegistry::InferDataTypeKernelFunc inferDataType = nullptr;
};

namespace {
std::map<std::string, OpImplRegisterV2Impl>& runtimeImpls()
{
    static std::map<std::string, OpImplRegisterV2Impl> m;
    return m;
}
} // namespace

OpImplRegisterV2::OpImplRegisterV2(const ge::char_t* op_type) : impl_(new OpImplRegisterV2Impl)
{
    impl_->type = op_type;
}
// OP_ADD registers by copying: `gert::OpImplRegisterV2 implReg(impl);`.
OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2& other)
    : impl_(new OpImplRegisterV2Impl(*other.impl_))
{
    runtimeImpls()[impl_->type] = *impl_;
}
OpImplRegisterV2::~OpImplRegisterV2() {}
OpImplRegisterV2& OpImplRegisterV2::InferShape(OpImplKernelRegistry::InferShapeKernelFunc f)
{
    return impl_->inferShape = f, *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferShapeRange(OpImplKernelRegistry::InferShapeRangeKernelFunc)
{
    return *this;
}
OpImplRegisterV2& OpImplRegisterV2::InferDataType(OpImplKernelRegistry::InferDataTypeKernelFunc f)
{
    return impl_->inferDataType = f, *this;
}

} // namespace gert

namespace ops {

class OpParamDefImpl
{
};
OpParamDef::OpParamDef(const char*) : impl_(new OpParamDefImpl) {}
OpParamDef::OpParamDef(const OpParamDef&) : impl_(new OpParamDefImpl) {}
OpParamDef::~OpParamDef() {}
OpParamDef& OpParamDef::ParamType(Option)
{
    return *this;
}
OpParamDef& OpParamDef::DataType(std::vector<ge::DataType>)
{
    return *this;
}
OpParamDef& OpParamDef::Format(std::vector<ge::Format>)
{
    return *this;
}

class OpAttrDefImpl
{
};
OpAttrDef::OpAttrDef(const char*) : impl_(new OpAttrDefImpl) {}
OpAttrDef::OpAttrDef(const OpAttrDef&) : impl_(new OpAttrDefImpl) {}
OpAttrDef::~OpAttrDef() {}
OpAttrDef& OpAttrDef::AttrType(Option)
{
    return *this;
}
OpAttrDef& OpAttrDef::Bool(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::Bool(bool)
{
    return *this;
}
OpAttrDef& OpAttrDef::Float(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::Float(float)
{
    return *this;
}
OpAttrDef& OpAttrDef::Int(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::Int(std::int64_t)
{
    return *this;
}
OpAttrDef& OpAttrDef::String(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::String(const char*)
{
    return *this;
}
OpAttrDef& OpAttrDef::ListFloat(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::ListFloat(std::vector<float>)
{
    return *this;
}
OpAttrDef& OpAttrDef::ListInt(void)
{
    return *this;
}
OpAttrDef& OpAttrDef::ListInt(std::vector<std::int64_t>)
{
    return *this;
}

class OpAICoreDefImpl
{
};
OpAICoreDef::OpAICoreDef() : impl_(new OpAICoreDefImpl) {}
OpAICoreDef::~OpAICoreDef() {}
OpAICoreDef& OpAICoreDef::AddConfig(const char*)
{
    return *this;
}

class OpDefImpl
{
public:
    std::vector<OpParamDef> params;
    std::vector<OpAttrDef> attrs;
    OpAICoreDef aicore;
    gert::OpImplKernelRegistry::InferShapeKernelFunc inferShape = nullptr;
    gert::OpImplKernelRegistry::InferShapeRangeKernelFunc inferShapeRange = nullptr;
    gert::OpImplKernelRegistry::InferDataTypeKernelFunc inferDataType = nullptr;
};
OpDef::OpDef(const char*) : impl_(new OpDefImpl) {}
OpDef::OpDef(const OpDef& other) : impl_(new OpDefImpl)
{
    impl_->inferShape = other.impl_->inferShape;
    impl_->inferDataType = other.impl_->inferDataType;
}
OpDef::~OpDef() {}
OpParamDef& OpDef::Input(const char* name)
{
    return impl_->params.push_back(OpParamDef(name)), impl_->params.back();
}
OpParamDef& OpDef::Output(const char* name)
{
    return impl_->params.push_back(OpParamDef(name)), impl_->params.back();
}
OpAttrDef& OpDef::Attr(const char* name)
{
    return impl_->attrs.push_back(OpAttrDef(name)), impl_->attrs.back();
}
OpDef& OpDef::SetInferShape(gert::OpImplKernelRegistry::InferShapeKernelFunc f)
{
    return impl_->inferShape = f, *this;
}
OpDef& OpDef::SetInferDataType(gert::OpImplKernelRegistry::InferDataTypeKernelFunc f)
{
    return impl_->inferDataType = f, *this;
}
gert::OpImplKernelRegistry::InferShapeKernelFunc& OpDef::GetInferShape(void)
{
    return impl_->inferShape;
}
gert::OpImplKernelRegistry::InferShapeRangeKernelFunc& OpDef::GetInferShapeRange(void)
{
    return impl_->inferShapeRange;
}
gert::OpImplKernelRegistry::InferDataTypeKernelFunc& OpDef::GetInferDataType(void)
{
    return impl_->inferDataType;
}
OpAICoreDef& OpDef::AICore(void)
{
    return impl_->aicore;
}

namespace {
std::map<std::string, OpDefCreator>& factory()
{
    static std::map<std::string, OpDefCreator> m;
    return m;
}
} // namespace
int OpDefFactory::OpDefRegister(const char* name, OpDefCreator creator)
{
    return factory()[name] = creator, 0;
}

} // namespace ops

namespace ptowb_test {

bool hasOpDef(const std::string& opType)
{
    return ops::factory().count(opType) != 0;
}
ops::OpDef createOpDef(const std::string& opType)
{
    return ops::factory().at(opType)(opType.c_str());
}

gert::OpImplKernelRegistry::InferShapeKernelFunc runtimeInferShape(const std::string& opType)
{
    if (hasOpDef(opType)) return createOpDef(opType).GetInferShape();
    auto it = gert::runtimeImpls().find(opType);
    return it == gert::runtimeImpls().end() ? nullptr : it->second.inferShape;
}
gert::OpImplKernelRegistry::InferDataTypeKernelFunc runtimeInferDataType(const std::string& opType)
{
    if (hasOpDef(opType)) return createOpDef(opType).GetInferDataType();
    auto it = gert::runtimeImpls().find(opType);
    return it == gert::runtimeImpls().end() ? nullptr : it->second.inferDataType;
}

} // namespace ptowb_test
