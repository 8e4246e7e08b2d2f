#include "rules/rule_ast.h"

namespace ptowb::rules {

const char* typeName(Type type)
{
    switch (type) {
    case Type::Int:
        return "int";
    case Type::Float:
        return "float";
    case Type::Bool:
        return "bool";
    case Type::Str:
        return "str";
    case Type::DType:
        return "dtype";
    case Type::Shape:
        return "shape";
    case Type::FloatList:
        return "float list";
    case Type::Tensor:
        return "tensor";
    case Type::Error:
        return "<error>";
    }
    return "?";
}

const char* opSpelling(Op op)
{
    switch (op) {
    case Op::Add:
        return "+";
    case Op::Sub:
        return "-";
    case Op::Mul:
        return "*";
    case Op::Div:
        return "/";
    case Op::FloorDiv:
        return "//";
    case Op::Mod:
        return "%";
    case Op::Neg:
        return "-";
    case Op::Pos:
        return "+";
    case Op::Eq:
        return "==";
    case Op::Ne:
        return "!=";
    case Op::Lt:
        return "<";
    case Op::Le:
        return "<=";
    case Op::Gt:
        return ">";
    case Op::Ge:
        return ">=";
    case Op::In:
        return "in";
    case Op::NotIn:
        return "not in";
    }
    return "?";
}

const char* attrName(Attr attr)
{
    switch (attr) {
    case Attr::Shape:
        return "shape";
    case Attr::Rank:
        return "rank";
    case Attr::DType:
        return "dtype";
    case Attr::Numel:
        return "numel";
    }
    return "?";
}

} // namespace ptowb::rules
