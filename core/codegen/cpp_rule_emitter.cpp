#include "codegen/cpp_rule_emitter.h"

#include "types/dtype.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ptowb::codegen {

using rules::Node;
using rules::NodeKind;
using rules::Op;
using rules::Type;

const char* cppType(Type type)
{
    switch (type) {
    case Type::Int:
        return "std::int64_t";
    case Type::Float:
        return "double";
    case Type::Bool:
        return "bool";
    case Type::Str:
        return "std::string";
    case Type::DType:
        return "ptowb::DType";
    case Type::Shape:
        return "std::vector<std::int64_t>";
    case Type::FloatList:
        return "std::vector<double>";
    default:
        return "void";
    }
}

std::string cppStringLiteral(const std::string& text)
{
    return "std::string(" + cppCharLiteral(text) + ")";
}

std::string cppCharLiteral(const std::string& text)
{
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '\\' || c == '"') {
            out += '\\';
            out += char(c);
        } else if (c == '?') {
            out += "\\?"; // no trigraphs
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o",
                          c); // octal: at most three digits, never swallows what follows
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

namespace {

std::string doubleLiteral(double v)
{
    if (std::isinf(v)) return v > 0 ? "HUGE_VAL" : "(-HUGE_VAL)";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

class Emitter
{
public:
    explicit Emitter(const CppNames& names) : m_names(names) {}

    std::string emit(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::IntLit:
            return n.intValue == INT64_MIN ? "INT64_MIN"
                                           : "std::int64_t(" + std::to_string(n.intValue) + ")";
        case NodeKind::FloatLit:
            return doubleLiteral(n.floatValue);
        case NodeKind::BoolLit:
            return n.intValue ? "true" : "false";
        case NodeKind::StrLit:
            return cppStringLiteral(n.text);
        case NodeKind::DTypeLit:
            return "ptowb::DType::" + std::string(dtypeInfo(n.dtype).cppEnum);
        case NodeKind::Input:
            return m_names.inputs.at(std::size_t(n.slot));
        case NodeKind::Param:
            return m_names.params.at(std::size_t(n.slot));
        case NodeKind::List: {
            std::string out = std::string(cppType(n.type)) + "{";
            for (std::size_t k = 0; k < n.kids.size(); ++k)
                out += (k ? ", " : "") +
                       as(*n.kids[k], n.type == Type::FloatList ? Type::Float : Type::Int);
            return out + "}";
        }
        case NodeKind::Attr: {
            static const char* const kAccessor[] = {"ptShape", "ptRank", "ptDType", "ptNumel"};
            return std::string(kAccessor[int(n.attr)]) + "(" + emit(*n.kids[0]) + ")";
        }
        case NodeKind::Index: {
            const Node& sub = *n.kids[1];
            if (sub.kind != NodeKind::Slice)
                return "ptowb::emitted::index(" + emit(*n.kids[0]) + ", " + emit(sub) + ")";
            std::string out = "ptowb::emitted::slice(" + emit(*n.kids[0]);
            for (const auto& part : sub.kids)
                out += ", " + (part ? "std::optional<std::int64_t>(" + emit(*part) + ")"
                                    : std::string("std::optional<std::int64_t>()"));
            return out + ")";
        }
        case NodeKind::Unary:
            return n.op == Op::Neg ? "ptowb::emitted::neg(" + emit(*n.kids[0]) + ")"
                                   : "(" + emit(*n.kids[0]) + ")";
        case NodeKind::Binary:
            return binary(n);
        case NodeKind::Compare: {
            std::string out = "(";
            for (std::size_t k = 0; k < n.ops.size(); ++k)
                out += (k ? " && " : "") + compareOne(n.ops[k], *n.kids[k], *n.kids[k + 1]);
            return out + ")";
        }
        case NodeKind::And:
            return "(" + emit(*n.kids[0]) + " && " + emit(*n.kids[1]) + ")";
        case NodeKind::Or:
            return "(" + emit(*n.kids[0]) + " || " + emit(*n.kids[1]) + ")";
        case NodeKind::Not:
            return "(!" + emit(*n.kids[0]) + ")";
        case NodeKind::IfElse:
            return "(" + emit(*n.kids[1]) + " ? " + as(*n.kids[0], n.type) + " : " +
                   as(*n.kids[2], n.type) + ")";
        case NodeKind::Call:
            return call(n);
        default:
            return "/* unsupported */";
        }
    }

private:
    // The node's value converted to `want` (int to double, int list to double list).
    std::string as(const Node& n, Type want)
    {
        const std::string text = emit(n);
        if (want == Type::Float && n.type == Type::Int) return "double(" + text + ")";
        if (want == Type::FloatList && n.type == Type::Shape)
            return "ptowb::emitted::toFloats(" + text + ")";
        return text;
    }

    std::string compareOne(Op op, const Node& a, const Node& b)
    {
        if (op == Op::In || op == Op::NotIn)
            return std::string(op == Op::NotIn ? "!" : "") + "ptowb::emitted::contains(" + emit(b) +
                   ", " + emit(a) + ")";
        if (rules::isList(a.type)) {
            const std::string eq = "ptowb::emitted::listEqual(" + emit(a) + ", " + emit(b) + ")";
            return op == Op::Eq ? eq : "!" + eq;
        }
        if (rules::isNumeric(a.type) && a.type != b.type)
            return "(" + as(a, Type::Float) + " " + rules::opSpelling(op) + " " +
                   as(b, Type::Float) + ")";
        return "(" + emit(a) + " " + rules::opSpelling(op) + " " + emit(b) + ")";
    }

    std::string binary(const Node& n)
    {
        const Node& a = *n.kids[0];
        const Node& b = *n.kids[1];
        if (n.type == Type::Str) return "(" + emit(a) + " + " + emit(b) + ")";
        if (rules::isList(n.type)) {
            if (n.op == Op::Mul)
                return rules::isList(a.type)
                           ? "ptowb::emitted::repeat(" + as(a, n.type) + ", " + emit(b) + ")"
                           : "ptowb::emitted::repeat(" + as(b, n.type) + ", " + emit(a) + ")";
            return "ptowb::emitted::concat(" + as(a, n.type) + ", " + as(b, n.type) + ")";
        }
        if (n.op == Op::Div)
            return "ptowb::emitted::div(" + as(a, Type::Float) + ", " + as(b, Type::Float) + ")";
        if (n.type == Type::Float)
            return "(" + as(a, Type::Float) + " " + rules::opSpelling(n.op) + " " +
                   as(b, Type::Float) + ")";
        static const char* const kChecked[] = {"add", "sub", "mul", "div", "floorDiv", "mod"};
        return std::string("ptowb::emitted::") + kChecked[int(n.op)] + "(" + emit(a) + ", " +
               emit(b) + ")";
    }

    std::string call(const Node& n)
    {
        auto args = [&](Type widenTo = Type::Error) {
            std::string out;
            for (std::size_t k = 0; k < n.kids.size(); ++k)
                out += (k ? ", " : "") +
                       (widenTo == Type::Error ? emit(*n.kids[k]) : as(*n.kids[k], widenTo));
            return out;
        };
        switch (n.builtin) {
        case rules::Builtin::Min:
        case rules::Builtin::Max: {
            const bool isMin = n.builtin == rules::Builtin::Min;
            if (n.kids.size() == 1)
                return std::string("ptowb::emitted::") + (isMin ? "minOf(" : "maxOf(") + args() +
                       ")";
            return std::string("std::") + (isMin ? "min" : "max") + "({" + args(n.type) + "})";
        }
        case rules::Builtin::Abs:
            return "ptowb::emitted::absolute(" + args() + ")";
        case rules::Builtin::Len:
            return "std::int64_t((" + args() + ").size())";
        case rules::Builtin::Prod:
            return "ptowb::emitted::prod(" + args() + ")";
        case rules::Builtin::Sum:
            return "ptowb::emitted::sum(" + args() + ")";
        case rules::Builtin::CeilDiv:
            return "ptowb::emitted::ceilDiv(" + args() + ")";
        case rules::Builtin::Broadcast:
            return "ptowb::emitted::broadcast(" + args() + ")";
        case rules::Builtin::Promote:
            return "ptowb::emitted::promote(" + args() + ")";
        case rules::Builtin::Reduce:
            return "ptowb::emitted::reduce(" + args() + ")";
        case rules::Builtin::Transpose:
            return "ptowb::emitted::transpose(" + args() + ")";
        case rules::Builtin::MatmulShape:
            return "ptowb::emitted::matmulShape(" + args() + ")";
        }
        return "/* unsupported */";
    }

    const CppNames& m_names;
};

} // namespace

std::string emitCpp(const rules::Node& root, const CppNames& names)
{
    return Emitter(names).emit(root);
}

} // namespace ptowb::codegen
