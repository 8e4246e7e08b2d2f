#include "codegen/python_rule_emitter.h"

#include "codegen/templates.h"
#include "rules/rule_value.h"
#include "types/dtype.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ptowb::codegen {

using rules::Node;
using rules::NodeKind;
using rules::Op;

namespace {

// The code point of the UTF-8 sequence at text[k] and its length; 0 when it is not valid UTF-8
// (overlong, a surrogate, beyond U+10FFFF, or truncated).
std::size_t decodeUtf8(const std::string& text, std::size_t k, char32_t& cp)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(k);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || lead >= 0xF8 || k + length > text.size()) return 0;
    cp = lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(k + i) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(k + i) & 0x3F);
    }
    static const char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kSmallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return length;
}

} // namespace

std::string pythonStringLiteral(const std::string& text)
{
    // Plain ASCII inside '...': a single Constant to Python's parser, whatever the text holds.
    std::string out = "'";
    bool invalid = false;
    for (std::size_t k = 0; k < text.size(); ++k) {
        const unsigned char c = static_cast<unsigned char>(text[k]);
        switch (c) {
        case '\\':
            out += "\\\\";
            continue;
        case '\'':
            out += "\\'";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\r':
            out += "\\r";
            continue;
        case '\t':
            out += "\\t";
            continue;
        default:
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
            continue;
        }
        char buf[16];
        char32_t cp = 0;
        const std::size_t length = c >= 0x80 ? decodeUtf8(text, k, cp) : 0;
        if (length > 0) {
            std::snprintf(buf, sizeof buf, cp > 0xFFFF ? "\\U%08x" : "\\u%04x", unsigned(cp));
            k += length - 1;
        } else {
            invalid = invalid || c >= 0x80;
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
        }
        out += buf;
    }
    out += "'";
    if (!invalid) return out;
    // Bytes that are not UTF-8 (a reference file may hold any): a bytes literal keeps them all.
    out = "b'";
    for (unsigned char c : text) {
        if (c == '\\' || c == '\'') {
            out += '\\';
            out += char(c);
        } else if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out + "'.decode('utf-8', 'surrogateescape')";
}

namespace {

std::string floatLiteral(double v)
{
    if (std::isinf(v)) return v > 0 ? "float('inf')" : "float('-inf')";
    if (std::isnan(v)) return "float('nan')";
    return rules::formatFloat(v);
}

class Emitter
{
public:
    explicit Emitter(const PythonNames& names) : m_names(names) {}

    std::string emit(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::IntLit:
            return std::to_string(n.intValue);
        case NodeKind::FloatLit:
            return floatLiteral(n.floatValue);
        case NodeKind::BoolLit:
            return n.intValue ? "True" : "False";
        case NodeKind::StrLit:
            return pythonStringLiteral(n.text);
        case NodeKind::DTypeLit:
            return "_pt_dt(" + pythonStringLiteral(std::string(dtypeName(n.dtype))) + ")";
        case NodeKind::Input:
            return m_names.inputs.at(std::size_t(n.slot));
        case NodeKind::Param:
            return m_names.params.at(std::size_t(n.slot));
        case NodeKind::List: {
            std::string out = "[";
            for (std::size_t k = 0; k < n.kids.size(); ++k)
                out += (k ? ", " : "") + emitNumber(*n.kids[k], n.type == rules::Type::FloatList);
            return out + "]";
        }
        case NodeKind::Attr: {
            static const char* const kAccessor[] = {"_pt_shape", "_pt_rank", "_pt_dtype",
                                                    "_pt_numel"};
            return std::string(kAccessor[int(n.attr)]) + "(" + emit(*n.kids[0]) + ")";
        }
        case NodeKind::Index: {
            const Node& sub = *n.kids[1];
            if (sub.kind != NodeKind::Slice)
                return "_pt_index(" + emit(*n.kids[0]) + ", " + emit(sub) + ")";
            std::string s = emit(*n.kids[0]) + "[";
            for (std::size_t k = 0; k < 3; ++k) {
                if (k) s += ":";
                if (sub.kids[k]) s += emit(*sub.kids[k]);
            }
            // A zero step is an error in the rule language, as in Python.
            return s + "]";
        }
        case NodeKind::Unary:
            return std::string("(") + (n.op == Op::Neg ? "-" : "+") + emit(*n.kids[0]) + ")";
        case NodeKind::Binary:
            return binary(n);
        case NodeKind::Compare: {
            std::string out = "(" + emit(*n.kids[0]);
            for (std::size_t k = 0; k < n.ops.size(); ++k)
                out += std::string(" ") + rules::opSpelling(n.ops[k]) + " " + emit(*n.kids[k + 1]);
            return out + ")";
        }
        case NodeKind::And:
            return "(" + emit(*n.kids[0]) + " and " + emit(*n.kids[1]) + ")";
        case NodeKind::Or:
            return "(" + emit(*n.kids[0]) + " or " + emit(*n.kids[1]) + ")";
        case NodeKind::Not:
            return "(not " + emit(*n.kids[0]) + ")";
        case NodeKind::IfElse: {
            const bool widen = n.type == rules::Type::Float || n.type == rules::Type::FloatList;
            return "(" + (widen ? emitNumber(*n.kids[0], true) : emit(*n.kids[0])) + " if " +
                   emit(*n.kids[1]) + " else " +
                   (widen ? emitNumber(*n.kids[2], true) : emit(*n.kids[2])) + ")";
        }
        case NodeKind::Call:
            return call(n);
        default:
            return "None";
        }
    }

private:
    // An int (or list of ints) where the rule wants floats: converted, so results print alike.
    std::string emitNumber(const Node& n, bool asFloat)
    {
        const std::string text = emit(n);
        if (!asFloat) return text;
        if (n.type == rules::Type::Int) return "float(" + text + ")";
        if (n.type == rules::Type::Shape) return "[float(_v) for _v in " + text + "]";
        return text;
    }

    std::string binary(const Node& n)
    {
        const std::string a = emit(*n.kids[0]), b = emit(*n.kids[1]);
        if (n.type == rules::Type::FloatList && n.op == Op::Add)
            return "_pt_concat([float(_v) for _v in " + a + "], [float(_v) for _v in " + b + "])";
        if (n.type == rules::Type::Shape && n.op == Op::Add)
            return "_pt_concat(" + a + ", " + b + ")";
        if (n.type == rules::Type::Float && n.op != Op::Div)
            return "(" + emitNumber(*n.kids[0], true) + " " + rules::opSpelling(n.op) + " " +
                   emitNumber(*n.kids[1], true) + ")";
        if (n.op == Op::Div) return "_pt_div(" + a + ", " + b + ")";
        if (n.op == Op::Mul && rules::isList(n.type)) return "_pt_repeat(" + a + ", " + b + ")";
        return "(" + a + " " + rules::opSpelling(n.op) + " " + b + ")";
    }

    std::string call(const Node& n)
    {
        std::string args;
        for (std::size_t k = 0; k < n.kids.size(); ++k)
            args += (k ? ", " : "") + emit(*n.kids[k]);
        switch (n.builtin) {
        case rules::Builtin::Min:
        case rules::Builtin::Max: {
            const char* f = n.builtin == rules::Builtin::Min ? "min" : "max";
            if (n.kids.size() == 1) return std::string("_pt_") + f + "_of(" + args + ")";
            if (n.type == rules::Type::Float) {
                args.clear();
                for (std::size_t k = 0; k < n.kids.size(); ++k)
                    args += (k ? ", " : "") + emitNumber(*n.kids[k], true);
            }
            return std::string(f) + "(" + args + ")";
        }
        case rules::Builtin::Abs:
            return "abs(" + args + ")";
        case rules::Builtin::Len:
            return "len(" + args + ")";
        case rules::Builtin::Prod:
            return n.type == rules::Type::Float ? "float(_pt_prod(" + args + "))"
                                                : "_pt_prod(" + args + ")";
        case rules::Builtin::Sum:
            return n.type == rules::Type::Float ? "float(sum(" + args + "))" : "sum(" + args + ")";
        case rules::Builtin::CeilDiv:
            return "_pt_ceil_div(" + args + ")";
        case rules::Builtin::Broadcast:
            return "_pt_broadcast(" + args + ")";
        case rules::Builtin::Promote:
            return "_pt_promote(" + args + ")";
        case rules::Builtin::Reduce:
            return "_pt_reduce(" + args + ")";
        case rules::Builtin::Transpose:
            return "_pt_transpose(" + args + ")";
        case rules::Builtin::MatmulShape:
            return "_pt_matmul_shape(" + args + ")";
        }
        return "None";
    }

    const PythonNames& m_names;
};

} // namespace

std::string emitPython(const rules::Node& root, const PythonNames& names)
{
    return Emitter(names).emit(root);
}

const std::string& pythonRulePrelude()
{
    static const std::string prelude = pythonRulePreludeTemplate();
    return prelude;
}

} // namespace ptowb::codegen
