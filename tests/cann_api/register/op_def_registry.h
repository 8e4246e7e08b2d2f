#ifndef PTOWB_CANN_API_REGISTER_OP_DEF_REGISTRY_H
#define PTOWB_CANN_API_REGISTER_OP_DEF_REGISTRY_H

// OP_ADD (register/op_def_registry.h). Built with OP_PROTO_LIB it registers the OpDef's infer
// functions with the runtime (gert::OpImplRegisterV2, register/op_impl_registry.h), as the op
// proto library of a CANN custom-op project does; otherwise it registers the OpDef itself.
#include "register/op_def.h"

#include <functional>

namespace ops {

using OpDefCreator = std::function<OpDef(const char*)>;
class OpDefFactory
{
public:
    static int OpDefRegister(const char* name, OpDefCreator creator);
};

} // namespace ops

namespace gert {

class OpImplRegisterV2Impl;
class OpImplRegisterV2
{
public:
    explicit OpImplRegisterV2(const ge::char_t* op_type);
    OpImplRegisterV2(const OpImplRegisterV2& register_data);
    OpImplRegisterV2& operator=(const OpImplRegisterV2&) = delete;
    ~OpImplRegisterV2();
    OpImplRegisterV2& InferShape(OpImplKernelRegistry::InferShapeKernelFunc infer_shape_func);
    OpImplRegisterV2&
    InferShapeRange(OpImplKernelRegistry::InferShapeRangeKernelFunc infer_shape_range_func);
    OpImplRegisterV2&
    InferDataType(OpImplKernelRegistry::InferDataTypeKernelFunc infer_datatype_func);

private:
    std::unique_ptr<OpImplRegisterV2Impl> impl_;
};

} // namespace gert

#if defined(OP_PROTO_LIB)
#define OP_ADD(opType, ...)                                                                        \
    static int g_##opType##_added = [](const char* name) {                                         \
        opType op(name);                                                                           \
        gert::OpImplRegisterV2 impl(name);                                                         \
        impl.InferShape(op.GetInferShape())                                                        \
            .InferShapeRange(op.GetInferShapeRange())                                              \
            .InferDataType(op.GetInferDataType());                                                 \
        gert::OpImplRegisterV2 implReg(impl);                                                      \
        return 0;                                                                                  \
    }(#opType)
#else
#define OP_ADD(opType, ...)                                                                        \
    static int g_##opType##_added =                                                                \
        ops::OpDefFactory::OpDefRegister(#opType, [](const char* name) { return opType(name); })
#endif

#endif
