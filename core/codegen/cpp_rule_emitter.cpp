#include "codegen/cpp_rule_emitter.h"

#include "types/dtype.h"

#include <cmath>
#include <cstdio>

namespace ptowb::codegen {

using rules::Node;
using rules::NodeKind;
using rules::Op;
using rules::Type;

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

const char* cppRuleType(Type type)
{
    switch (type) {
    case Type::Int:
        return "ptowb_Rt::Int";
    case Type::Float:
        return "ptowb_Rt::Float";
    case Type::Bool:
        return "ptowb_Rt::Bool";
    case Type::Str:
        return "ptowb_Rt::Str";
    case Type::DType:
        return "ptowb_Rt::DT";
    case Type::Shape:
        return "ptowb_Rt::Shape";
    case Type::FloatList:
        return "ptowb_Rt::Floats";
    default:
        return "void";
    }
}

void collectSlots(const Node& root, std::set<int>& inputs, std::set<int>& params)
{
    if (root.kind == NodeKind::Input) inputs.insert(root.slot);
    if (root.kind == NodeKind::Param) params.insert(root.slot);
    for (const auto& kid : root.kids)
        if (kid) collectSlots(*kid, inputs, params);
}

namespace {

const char* const R = "ptowb_Rt::";

std::string intLiteral(std::int64_t v)
{
    return v == INT64_MIN ? "std::numeric_limits<std::int64_t>::min()"
                          : "std::int64_t(" + std::to_string(v) + ")";
}

std::string doubleLiteral(double v)
{
    if (std::isinf(v))
        return v > 0 ? "std::numeric_limits<double>::infinity()"
                     : "(-std::numeric_limits<double>::infinity())";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

std::string call(const char* function, const std::string& args)
{
    return std::string(R) + function + "(" + args + ")";
}

// A lambda C++11 accepts: one return statement, so its return type is deduced.
std::string lazy(const std::string& expression)
{
    return "[&]() { return " + expression + "; }";
}

class Emitter
{
public:
    explicit Emitter(const CppNames& names) : m_names(names) {}

    std::string emit(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::IntLit:
            return call("intOf", intLiteral(n.intValue));
        case NodeKind::FloatLit:
            return call("floatOf", doubleLiteral(n.floatValue));
        case NodeKind::BoolLit:
            return call("boolOf", n.intValue ? "true" : "false");
        case NodeKind::StrLit:
            return call("strOf", "std::string(" + cppCharLiteral(n.text) + ", " +
                                     std::to_string(n.text.size()) + ")");
        case NodeKind::DTypeLit:
            return call("dtypeOf",
                        std::string(R) + "DType::" + std::string(dtypeInfo(n.dtype).cppEnum));
        case NodeKind::Input:
            return m_names.inputs.at(std::size_t(n.slot));
        case NodeKind::Param:
            return m_names.params.at(std::size_t(n.slot));
        case NodeKind::List: {
            const bool floats = n.type == Type::FloatList;
            std::string items;
            for (std::size_t k = 0; k < n.kids.size(); ++k)
                items += (k ? ", " : "") + as(*n.kids[k], floats ? Type::Float : Type::Int);
            return call(floats ? "floatList" : "shapeList", "{" + items + "}");
        }
        case NodeKind::Attr: {
            const std::string tensor = emit(*n.kids[0]);
            switch (n.attr) {
            case rules::Attr::Shape:
                return tensor + ".shape";
            case rules::Attr::Rank:
                return call("len", tensor + ".shape");
            case rules::Attr::DType:
                return tensor + ".dtype";
            case rules::Attr::Numel:
                return call("prod", tensor + ".shape");
            }
            return "/* unsupported */";
        }
        case NodeKind::Index: {
            const Node& sub = *n.kids[1];
            if (sub.kind != NodeKind::Slice)
                return call("index", emit(*n.kids[0]) + ", " + emit(sub));
            std::string args = emit(*n.kids[0]);
            for (const auto& part : sub.kids)
                args += ", " + (part ? call("part", emit(*part)) : call("noPart", ""));
            return call("slice", args);
        }
        case NodeKind::Unary:
            return n.op == Op::Neg ? call("neg", emit(*n.kids[0])) : emit(*n.kids[0]);
        case NodeKind::Binary:
            return binary(n);
        case NodeKind::Compare:
            return compareChain(n, 0);
        case NodeKind::And:
            return call("andThen", emit(*n.kids[0]) + ", " + lazy(emit(*n.kids[1])));
        case NodeKind::Or:
            return call("orElse", emit(*n.kids[0]) + ", " + lazy(emit(*n.kids[1])));
        case NodeKind::Not:
            return call("notOf", emit(*n.kids[0]));
        case NodeKind::IfElse:
            return call("choose", emit(*n.kids[1]) + ", " + lazy(as(*n.kids[0], n.type)) + ", " +
                                      lazy(as(*n.kids[2], n.type)));
        case NodeKind::Call:
            return builtin(n);
        default:
            return "/* unsupported */";
        }
    }

private:
    // The node's value converted to `want` (int to float, shape to float list).
    std::string as(const Node& n, Type want)
    {
        const std::string text = emit(n);
        if (want == Type::Float && n.type == Type::Int) return call("toFloat", text);
        if (want == Type::FloatList && n.type == Type::Shape) return call("toFloats", text);
        return text;
    }

    // Python's chained comparison a < b < c: each link only where the ones before held.
    std::string compareChain(const Node& n, std::size_t k)
    {
        const std::string link = compareOne(n.ops[k], *n.kids[k], *n.kids[k + 1]);
        if (k + 1 == n.ops.size()) return link;
        return call("andThen", link + ", " + lazy(compareChain(n, k + 1)));
    }

    std::string compareOne(Op op, const Node& a, const Node& b)
    {
        if (op == Op::In || op == Op::NotIn) {
            // An int in a shape compares exactly, anything else as floats (as the evaluator does).
            const bool exact = a.type == Type::Int && b.type == Type::Shape;
            const std::string found =
                call("contains", exact ? emit(b) + ", " + emit(a)
                                       : as(b, Type::FloatList) + ", " + as(a, Type::Float));
            return op == Op::NotIn ? call("notOf", found) : found;
        }
        if (rules::isList(a.type))
            return call(op == Op::Eq ? "listEq" : "listNe", emit(a) + ", " + emit(b));
        static const char* const kNames[] = {"", "",   "",   "",   "",   "",   "",
                                             "", "eq", "ne", "lt", "le", "gt", "ge"};
        const char* function = kNames[int(op)];
        if (rules::isNumeric(a.type) && a.type != b.type)
            return call(function, as(a, Type::Float) + ", " + as(b, Type::Float));
        return call(function, emit(a) + ", " + emit(b));
    }

    std::string binary(const Node& n)
    {
        const Node& a = *n.kids[0];
        const Node& b = *n.kids[1];
        if (n.type == Type::Str) return call("concatStr", emit(a) + ", " + emit(b));
        if (rules::isList(n.type)) {
            if (n.op == Op::Mul)
                return rules::isList(a.type) ? call("repeat", as(a, n.type) + ", " + emit(b))
                                             : call("repeat", as(b, n.type) + ", " + emit(a));
            return call("concat", as(a, n.type) + ", " + as(b, n.type));
        }
        static const char* const kNames[] = {"add", "sub", "mul", "div", "floorDiv", "mod"};
        if (n.op == Op::Div || n.type == Type::Float)
            return call(kNames[int(n.op)], as(a, Type::Float) + ", " + as(b, Type::Float));
        return call(kNames[int(n.op)], emit(a) + ", " + emit(b));
    }

    std::string args(const Node& n, std::size_t from, Type widenTo)
    {
        std::string out;
        for (std::size_t k = from; k < n.kids.size(); ++k)
            out += (k > from ? ", " : "") +
                   (widenTo == Type::Error ? emit(*n.kids[k]) : as(*n.kids[k], widenTo));
        return out;
    }

    std::string flag(const Node& n, std::size_t k)
    {
        return k < n.kids.size() ? emit(*n.kids[k]) : call("boolOf", "false");
    }

    std::string builtin(const Node& n)
    {
        switch (n.builtin) {
        case rules::Builtin::Min:
        case rules::Builtin::Max: {
            const bool isMin = n.builtin == rules::Builtin::Min;
            if (n.kids.size() == 1) return call(isMin ? "minOf" : "maxOf", emit(*n.kids[0]));
            return call(isMin ? "minN" : "maxN", "{" + args(n, 0, n.type) + "}");
        }
        case rules::Builtin::Abs:
            return call("absolute", emit(*n.kids[0]));
        case rules::Builtin::Len:
            return call("len", emit(*n.kids[0]));
        case rules::Builtin::Prod:
            return call("prod", emit(*n.kids[0]));
        case rules::Builtin::Sum:
            return call("sum", emit(*n.kids[0]));
        case rules::Builtin::CeilDiv:
            return call("ceilDiv", args(n, 0, Type::Error));
        case rules::Builtin::Broadcast:
            return call("broadcast", "{" + args(n, 0, Type::Error) + "}");
        case rules::Builtin::Promote:
            return call("promote", "{" + args(n, 0, Type::Error) + "}");
        case rules::Builtin::Reduce: {
            const Node& dims = *n.kids[1];
            const std::string dimList =
                dims.type == Type::Int ? call("shapeList", "{" + emit(dims) + "}") : emit(dims);
            return call("reduce", emit(*n.kids[0]) + ", " + dimList + ", " + flag(n, 2));
        }
        case rules::Builtin::Transpose:
            return call("transpose", args(n, 0, Type::Error));
        case rules::Builtin::MatmulShape:
            return call("matmulShape", emit(*n.kids[0]) + ", " + emit(*n.kids[1]) + ", " +
                                           flag(n, 2) + ", " + flag(n, 3));
        }
        return "/* unsupported */";
    }

    const CppNames& m_names;
};

} // namespace

std::string emitCppRule(const rules::Node& root, const CppNames& names)
{
    return Emitter(names).emit(root);
}

} // namespace ptowb::codegen
