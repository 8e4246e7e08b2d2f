#ifndef PTOWB_CANN_API_GRAPH_OPERATOR_REG_H
#define PTOWB_CANN_API_GRAPH_OPERATOR_REG_H

// REG_OP and the infer-function registration of graph/operator_reg.h. The macros are written
// here from their documented use, with the same chaining technique as CANN's: REG_OP opens a
// class derived from ge::Operator and a member function whose body is an `OpReg()` chain; every
// .INPUT/.OUTPUT/.ATTR/.REQUIRED_ATTR closes that function and opens the next, and
// .OP_END_FACTORY_REG closes the class and registers its creator. So a generated prototype
// only compiles here if it has CANN's shape: the right macro arguments, attribute types that
// name an Op<Type> alias, defaults that initialize it.
#include "graph/operator.h"
#include "graph/types.h"

#include <functional>
#include <initializer_list>
#include <type_traits>

namespace ge {

class TensorType
{
public:
    explicit TensorType(DataType dt);
    TensorType(const std::initializer_list<DataType>& types);
};

class OpReg
{
public:
    OpReg& N() { return *this; }
};

using OpCreatorV2 = std::function<Operator(const AscendString&)>;
class OperatorCreatorRegister
{
public:
    OperatorCreatorRegister(const char_t* operator_type, const OpCreatorV2& op_creator);
};

using InferShapeFunc = std::function<graphStatus(Operator&)>;
class InferShapeFuncRegister
{
public:
    InferShapeFuncRegister(const char_t* operator_type, const InferShapeFunc& infer_shape_func);
};

} // namespace ge

#define PTOWB_CANN_API_PASTE2(a, b) a##b
#define PTOWB_CANN_API_PASTE(a, b) PTOWB_CANN_API_PASTE2(a, b)

#define REG_OP(x)                                                                                  \
    namespace op {                                                                                 \
    class x : public Operator                                                                      \
    {                                                                                              \
        typedef x ThisType;                                                                        \
                                                                                                   \
    public:                                                                                        \
        explicit x(const char* name) : Operator(name, #x) { RegisterAll(); }                       \
        explicit x(const AscendString& name) : Operator(name, #x) { RegisterAll(); }               \
        x() : Operator(#x) { RegisterAll(); }                                                      \
                                                                                                   \
    private:                                                                                       \
        void RegisterAll()                                                                         \
        {                                                                                          \
            OpReg()

#define INPUT(x, t)                                                                                \
    N();                                                                                           \
    RegisterInput_##x();                                                                           \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    TensorDesc get_input_desc_##x() const                                                          \
    {                                                                                              \
        return GetInputDescByName(#x);                                                             \
    }                                                                                              \
                                                                                                   \
private:                                                                                           \
    void RegisterInput_##x()                                                                       \
    {                                                                                              \
        InputRegister(#x, t);                                                                      \
        (void)OpReg()

#define OUTPUT(x, t)                                                                               \
    N();                                                                                           \
    RegisterOutput_##x();                                                                          \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    TensorDesc get_output_desc_##x() const                                                         \
    {                                                                                              \
        return GetOutputDescByName(#x);                                                            \
    }                                                                                              \
                                                                                                   \
private:                                                                                           \
    void RegisterOutput_##x()                                                                      \
    {                                                                                              \
        OutputRegister(#x, t);                                                                     \
        (void)OpReg()

#define ATTR(x, Type, ...)                                                                         \
    N();                                                                                           \
    RegisterAttr_##x();                                                                            \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    static const char* name_attr_##x()                                                             \
    {                                                                                              \
        return #x;                                                                                 \
    }                                                                                              \
                                                                                                   \
private:                                                                                           \
    void RegisterAttr_##x()                                                                        \
    {                                                                                              \
        const Op##Type value = __VA_ARGS__;                                                        \
        AttrRegister(#x, value);                                                                   \
        (void)OpReg()

#define REQUIRED_ATTR(x, Type)                                                                     \
    N();                                                                                           \
    RegisterRequiredAttr_##x();                                                                    \
    }                                                                                              \
                                                                                                   \
public:                                                                                            \
    static const char* name_attr_##x()                                                             \
    {                                                                                              \
        return #x;                                                                                 \
    }                                                                                              \
    typedef Op##Type AttrType_##x;                                                                 \
                                                                                                   \
private:                                                                                           \
    void RegisterRequiredAttr_##x()                                                                \
    {                                                                                              \
        RequiredAttrWithTypeRegister(#x, #Type);                                                   \
        (void)OpReg()

#define OP_END_FACTORY_REG(x)                                                                      \
    N();                                                                                           \
    }                                                                                              \
    static_assert(std::is_same<x, ThisType>::value,                                                \
                  "OP_END_FACTORY_REG must name the type of its REG_OP");                          \
    }                                                                                              \
    ;                                                                                              \
    static const OperatorCreatorRegister PTOWB_CANN_API_PASTE(g_register_, __COUNTER__)(           \
        #x, [](const AscendString& name) { return x(name); });                                     \
    }

#define IMPLEMT_COMMON_INFERFUNC(func_name) static graphStatus func_name(Operator& op)

#define COMMON_INFER_FUNC_REG(op_name, x)                                                          \
    static const InferShapeFuncRegister PTOWB_CANN_API_PASTE(g_infer_register_, __COUNTER__)(      \
        #op_name, [](Operator& v) { return x(v); })

#endif
