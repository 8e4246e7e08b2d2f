#include "rules/rule_checker.h"

#include "diag/suggest.h"
#include "rules/rule_builtins.h"

namespace ptowb::rules {
namespace {

class Checker
{
public:
    Checker(const RuleScope& scope, std::vector<RuleError>& errors)
        : m_scope(scope), m_errors(errors)
    {
    }

    Type check(Node& n)
    {
        n.type = visitNode(*this, n);
        return n.type;
    }

    // Handlers of visitNode (rule_ast.h), one per group of node kinds.
    Type literal(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::IntLit:
            return Type::Int;
        case NodeKind::FloatLit:
            return Type::Float;
        case NodeKind::BoolLit:
            return Type::Bool;
        case NodeKind::StrLit:
            return Type::Str;
        default:
            return Type::DType;
        }
    }

    Type input(const Node&) { return Type::Tensor; }

    Type param(const Node& n) { return m_scope.params[std::size_t(n.slot)].type; }

    Type slice(const Node& n)
    {
        return error(n.span, "rule.syntax", "a slice can only appear inside [ ]");
    }

    Type unary(Node& n)
    {
        const Type t = check(*n.kids[0]);
        if (t == Type::Error) return t;
        if (!isNumeric(t))
            return typeError(n.span, std::string("unary '") + opSpelling(n.op) +
                                         "' needs a number, not " + typeName(t));
        return t;
    }

    Type logical(Node& n)
    {
        bool failed = false;
        for (auto& kid : n.kids) {
            const Type t = check(*kid);
            if (t == Type::Error)
                failed = true;
            else if (t != Type::Bool)
                failed = typeError(kid->span, std::string("'") +
                                                  (n.kind == NodeKind::And  ? "and"
                                                   : n.kind == NodeKind::Or ? "or"
                                                                            : "not") +
                                                  "' needs bool operands, not " + typeName(t)) ==
                         Type::Error;
        }
        return failed ? Type::Error : Type::Bool;
    }

    Type name(Node& n)
    {
        for (std::size_t k = 0; k < m_scope.inputs.size(); ++k)
            if (m_scope.inputs[k] == n.text) {
                n.kind = NodeKind::Input;
                n.slot = int(k);
                return Type::Tensor;
            }
        for (std::size_t k = 0; k < m_scope.params.size(); ++k)
            if (m_scope.params[k].name == n.text) {
                n.kind = NodeKind::Param;
                n.slot = int(k);
                return m_scope.params[k].type;
            }
        if (auto d = dtypeFromName(n.text)) {
            n.kind = NodeKind::DTypeLit;
            n.dtype = *d;
            return Type::DType;
        }
        if (builtinFromName(n.text))
            return error(n.span, "rule.syntax",
                         "'" + n.text + "' is a function; call it as " +
                             builtinSignature(*builtinFromName(n.text)));
        return error(n.span, "rule.unknown-name",
                     "unknown name '" + n.text + "'" + didYouMean(n.text, knownNames()));
    }

    Type list(Node& n)
    {
        bool allInt = true, failed = false;
        for (auto& kid : n.kids) {
            const Type t = check(*kid);
            if (t == Type::Error)
                failed = true;
            else if (!isNumeric(t))
                failed = typeError(kid->span, std::string("list elements must be numbers, not ") +
                                                  typeName(t)) == Type::Error;
            else
                allInt = allInt && t == Type::Int;
        }
        if (failed) return Type::Error;
        return allInt ? Type::Shape : Type::FloatList;
    }

    Type attribute(Node& n)
    {
        const Type base = check(*n.kids[0]);
        if (base == Type::Error) return base;
        static const std::pair<const char*, Attr> kAttrs[] = {{"shape", Attr::Shape},
                                                              {"rank", Attr::Rank},
                                                              {"dtype", Attr::DType},
                                                              {"numel", Attr::Numel}};
        if (base == Type::Tensor && n.kids[0]->kind != NodeKind::Input)
            return typeError(n.span,
                             "'." + n.text + "' applies to an input by name, e.g. x." + n.text);
        if (base != Type::Tensor)
            return typeError(n.span, "'." + n.text + "' applies to a tensor input, and '" +
                                         n.kids[0]->text + "' is " + typeName(base));
        for (const auto& [attrText, attr] : kAttrs)
            if (n.text == attrText) {
                n.attr = attr;
                switch (attr) {
                case Attr::Shape:
                    return Type::Shape;
                case Attr::DType:
                    return Type::DType;
                default:
                    return Type::Int;
                }
            }
        return error(n.span, "rule.unknown-attribute",
                     "tensors have no attribute '" + n.text + "'" +
                         didYouMean(n.text, {"shape", "rank", "dtype", "numel"}) +
                         " (available: shape, rank, dtype, numel)");
    }

    Type index(Node& n)
    {
        const Type base = check(*n.kids[0]);
        Node& sub = *n.kids[1];
        Type subType = Type::Error;
        if (sub.kind == NodeKind::Slice) {
            subType = Type::Shape;
            for (auto& part : sub.kids) {
                if (!part) continue;
                const Type t = check(*part);
                if (t != Type::Int && t != Type::Error)
                    subType = typeError(part->span, std::string("slice bounds must be int, not ") +
                                                        typeName(t));
                if (t == Type::Error) subType = Type::Error;
            }
            sub.type = subType;
        } else {
            subType = check(sub);
            if (subType != Type::Int && subType != Type::Error)
                subType = typeError(sub.span,
                                    std::string("an index must be int, not ") + typeName(subType));
        }
        if (base == Type::Error || subType == Type::Error) return Type::Error;
        if (base == Type::Tensor)
            return typeError(n.span,
                             "tensors cannot be indexed in rules; index their shape, e.g. " +
                                 n.kids[0]->text + ".shape[0]");
        if (!isList(base))
            return typeError(n.kids[0]->span, std::string("cannot index ") + typeName(base));
        if (sub.kind == NodeKind::Slice) return base;
        if (const auto rank = knownShapeRank(*n.kids[0])) {
            const auto at = constantIndex(sub);
            if (at && (*at >= *rank || *at < -*rank))
                return error(sub.span, "rule.index-out-of-range",
                             describeOutOfRange(*n.kids[0], *at, *rank));
        }
        return base == Type::Shape ? Type::Int : Type::Float;
    }

    // x.shape of an input whose rank op.json fixes: that rank.
    std::optional<int> knownShapeRank(const Node& n) const
    {
        if (n.kind != NodeKind::Attr || n.attr != Attr::Shape || n.kids.empty() ||
            n.kids[0]->kind != NodeKind::Input)
            return std::nullopt;
        const auto slot = std::size_t(n.kids[0]->slot);
        return slot < m_scope.inputRanks.size() ? m_scope.inputRanks[slot] : std::nullopt;
    }
    static std::optional<std::int64_t> constantIndex(const Node& n)
    {
        if (n.kind == NodeKind::IntLit) return n.intValue;
        if (n.kind == NodeKind::Unary && n.op == Op::Neg && n.kids[0]->kind == NodeKind::IntLit)
            return -n.kids[0]->intValue;
        return std::nullopt;
    }
    static std::string describeOutOfRange(const Node& shape, std::int64_t at, int rank)
    {
        const std::string input = shape.kids[0]->text;
        return input + " has rank " + std::to_string(rank) + " (op.json), so " + input + ".shape[" +
               std::to_string(at) + "] does not exist" +
               (rank > 0 ? "; its dims are " + input + ".shape[0] to " + input + ".shape[" +
                               std::to_string(rank - 1) + "]"
                         : std::string());
    }

    Type binary(Node& n)
    {
        const Type a = check(*n.kids[0]);
        const Type b = check(*n.kids[1]);
        if (a == Type::Error || b == Type::Error) return Type::Error;
        const std::string opText = opSpelling(n.op);
        auto mismatch = [&] {
            return typeError(n.span, "operator '" + opText + "' does not apply to " + typeName(a) +
                                         " and " + typeName(b));
        };
        switch (n.op) {
        case Op::Add:
            if (isList(a) && isList(b))
                return a == Type::Shape && b == Type::Shape ? Type::Shape : Type::FloatList;
            if (a == Type::Str && b == Type::Str) return Type::Str;
            [[fallthrough]];
        case Op::Sub:
            if (isNumeric(a) && isNumeric(b))
                return a == Type::Int && b == Type::Int ? Type::Int : Type::Float;
            return mismatch();
        case Op::Mul:
            if (isNumeric(a) && isNumeric(b))
                return a == Type::Int && b == Type::Int ? Type::Int : Type::Float;
            if ((isList(a) && b == Type::Int) || (a == Type::Int && isList(b)))
                return isList(a) ? a : b;
            return mismatch();
        case Op::Div:
            if (isNumeric(a) && isNumeric(b)) return Type::Float;
            return mismatch();
        case Op::FloorDiv:
        case Op::Mod:
            if (a == Type::Int && b == Type::Int) return Type::Int;
            return typeError(n.span, "operator '" + opText + "' needs int operands, not " +
                                         typeName(a) + " and " + typeName(b));
        default:
            return mismatch();
        }
    }

    Type compare(Node& n)
    {
        std::vector<Type> types;
        bool failed = false;
        for (auto& kid : n.kids) {
            types.push_back(check(*kid));
            failed = failed || types.back() == Type::Error;
        }
        if (failed) return Type::Error;
        for (std::size_t k = 0; k < n.ops.size(); ++k) {
            const Type a = types[k], b = types[k + 1];
            const Op op = n.ops[k];
            bool ok;
            if (op == Op::In || op == Op::NotIn)
                ok = isNumeric(a) && isList(b);
            else if (op == Op::Eq || op == Op::Ne)
                ok = (a == b && a != Type::Tensor) || (isNumeric(a) && isNumeric(b)) ||
                     (isList(a) && isList(b));
            else
                ok = isNumeric(a) && isNumeric(b);
            if (!ok)
                return typeError({n.kids[k]->span.begin, n.kids[k + 1]->span.end},
                                 std::string("cannot compare ") + typeName(a) + " " +
                                     opSpelling(op) + " " + typeName(b));
        }
        return Type::Bool;
    }

    Type ifElse(Node& n)
    {
        const Type then = check(*n.kids[0]);
        const Type cond = check(*n.kids[1]);
        const Type otherwise = check(*n.kids[2]);
        if (then == Type::Error || cond == Type::Error || otherwise == Type::Error)
            return Type::Error;
        if (cond != Type::Bool)
            return typeError(n.kids[1]->span,
                             std::string("the condition must be bool, not ") + typeName(cond));
        if (then == Type::Tensor || otherwise == Type::Tensor)
            return typeError(n.span,
                             "choose between tensor properties (x.shape, x.dtype), not tensors");
        if (then == otherwise) return then;
        if (isNumeric(then) && isNumeric(otherwise)) return Type::Float;
        if (isList(then) && isList(otherwise)) return Type::FloatList;
        return typeError(n.span, std::string("both branches must have the same type; got ") +
                                     typeName(then) + " and " + typeName(otherwise));
    }

    Type call(Node& n)
    {
        auto builtin = builtinFromName(n.text);
        std::vector<Type> args;
        bool failed = false;
        for (auto& kid : n.kids) {
            args.push_back(check(*kid));
            failed = failed || args.back() == Type::Error;
        }
        if (!builtin)
            return error({n.span.begin, n.span.begin + std::uint32_t(n.text.size())},
                         "rule.unknown-function",
                         "unknown function '" + n.text + "'" + didYouMean(n.text, builtinNames()));
        n.builtin = *builtin;
        if (failed) return Type::Error;
        auto result = checkBuiltin(*builtin, args);
        if (auto* failure = std::get_if<BuiltinFailure>(&result)) {
            return error(failureSpan(n, *failure), failure->code, failure->message);
        }
        return std::get<Type>(result);
    }

private:
    Type error(Span span, std::string code, std::string message)
    {
        m_errors.push_back({span, std::move(code), std::move(message)});
        return Type::Error;
    }

    Type typeError(Span span, std::string message)
    {
        return error(span, "rule.type-error", std::move(message));
    }

    std::vector<std::string> knownNames() const
    {
        std::vector<std::string> names = m_scope.inputs;
        for (const auto& p : m_scope.params)
            names.push_back(p.name);
        for (const auto& d : allDTypes())
            names.emplace_back(d.name);
        return names;
    }

    const RuleScope& m_scope;
    std::vector<RuleError>& m_errors;
};

} // namespace

std::vector<RuleError> checkRule(Node& root, const RuleScope& scope)
{
    std::vector<RuleError> errors;
    Checker(scope, errors).check(root);
    return errors;
}

} // namespace ptowb::rules
