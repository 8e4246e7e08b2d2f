#include "rules/rule_evaluator.h"

#include "rules/rule_builtins.h"

#include <cmath>

namespace ptowb::rules {
namespace {

struct EvalFailure
{
    RuleError error;
};

[[noreturn]] void fail(Span span, std::string code, std::string message)
{
    throw EvalFailure{{span, std::move(code), std::move(message)}};
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

std::int64_t floorMod(std::int64_t a, std::int64_t b)
{
    std::int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

class Evaluator
{
public:
    explicit Evaluator(const RuleBindings& b) : m_b(b) {}

    Value eval(const Node& n) { return visitNode(*this, n); }

    // Handlers of visitNode (rule_ast.h), one per group of node kinds.
    Value literal(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::IntLit:
            return Value::ofInt(n.intValue);
        case NodeKind::FloatLit:
            return Value::ofFloat(n.floatValue);
        case NodeKind::BoolLit:
            return Value::ofBool(n.intValue != 0);
        case NodeKind::StrLit:
            return Value::ofStr(n.text);
        default:
            return Value::ofDType(n.dtype);
        }
    }

    // The checker resolved every name, and a slice or a bare input stands only inside the
    // nodes that read it.
    [[noreturn]] Value name(const Node& n) { unchecked(n); }
    [[noreturn]] Value input(const Node& n) { unchecked(n); }
    [[noreturn]] Value slice(const Node& n) { unchecked(n); }

    Value logical(const Node& n)
    {
        switch (n.kind) {
        case NodeKind::And:
            return Value::ofBool(eval(*n.kids[0]).asBool() && eval(*n.kids[1]).asBool());
        case NodeKind::Or:
            return Value::ofBool(eval(*n.kids[0]).asBool() || eval(*n.kids[1]).asBool());
        default:
            return Value::ofBool(!eval(*n.kids[0]).asBool());
        }
    }

    Value ifElse(const Node& n)
    {
        Value v = eval(*n.kids[eval(*n.kids[1]).asBool() ? 0 : 2]);
        return n.type == Type::Float || n.type == Type::FloatList ? widen(std::move(v)) : v;
    }

    static Value widen(Value v)
    {
        if (v.type == Type::Int) return Value::ofFloat(double(v.i));
        if (v.type == Type::Shape)
            return Value::ofFloatList(std::vector<double>(v.ints.begin(), v.ints.end()));
        return v;
    }

    const TensorInfo& tensor(const Node& n)
    {
        if (n.kind != NodeKind::Input || std::size_t(n.slot) >= m_b.inputs.size())
            fail(n.span, "rule.internal", "no value bound for input '" + n.text + "'");
        return m_b.inputs[std::size_t(n.slot)];
    }

    Value param(const Node& n)
    {
        if (std::size_t(n.slot) >= m_b.params.size())
            fail(n.span, "rule.internal", "no value bound for parameter '" + n.text + "'");
        const Value& v = m_b.params[std::size_t(n.slot)];
        return n.type == Type::Float || n.type == Type::FloatList ? widen(v) : v;
    }

    Value list(const Node& n)
    {
        if (n.type == Type::Shape) {
            std::vector<std::int64_t> ints;
            ints.reserve(n.kids.size());
            for (const auto& kid : n.kids)
                ints.push_back(eval(*kid).i);
            return Value::ofShape(std::move(ints));
        }
        std::vector<double> floats;
        floats.reserve(n.kids.size());
        for (const auto& kid : n.kids)
            floats.push_back(eval(*kid).asDouble());
        return Value::ofFloatList(std::move(floats));
    }

    Value attribute(const Node& n)
    {
        const TensorInfo& t = tensor(*n.kids[0]);
        switch (n.attr) {
        case Attr::Shape:
            return Value::ofShape(t.shape);
        case Attr::Rank:
            return Value::ofInt(std::int64_t(t.shape.size()));
        case Attr::DType:
            return Value::ofDType(t.dtype);
        case Attr::Numel: {
            std::int64_t count = 1;
            for (auto d : t.shape)
                if (!checkedMul(count, d, count))
                    fail(n.span, "rule.overflow", "numel overflows 64 bits");
            return Value::ofInt(count);
        }
        }
        fail(n.span, "rule.internal", "unknown attribute");
    }

    static std::size_t resolveIndex(std::int64_t index, std::size_t size, Span span)
    {
        const auto s = std::int64_t(size);
        if (index < -s || index >= s)
            fail(span, "rule.index-error",
                 "index " + std::to_string(index) + " is out of range for a list of length " +
                     std::to_string(size));
        return std::size_t(index < 0 ? index + s : index);
    }

    Value index(const Node& n)
    {
        const Node& sub = *n.kids[1];
        // x.shape[k] is the most common rule term: read it without copying the shape.
        const Node& base = *n.kids[0];
        if (sub.kind != NodeKind::Slice && base.kind == NodeKind::Attr &&
            base.attr == Attr::Shape) {
            const TensorInfo& t = tensor(*base.kids[0]);
            return Value::ofInt(t.shape[resolveIndex(eval(sub).i, t.shape.size(), n.span)]);
        }
        Value list = eval(base);
        if (sub.kind != NodeKind::Slice) {
            const std::size_t k = resolveIndex(eval(sub).i, list.listSize(), n.span);
            return list.type == Type::Shape ? Value::ofInt(list.ints[k])
                                            : Value::ofFloat(list.floats[k]);
        }
        const auto size = std::int64_t(list.listSize());
        std::int64_t step = sub.kids[2] ? eval(*sub.kids[2]).i : 1;
        if (step == 0) fail(sub.span, "rule.value-error", "slice step cannot be zero");
        auto bound = [&](const NodePtr& part, std::int64_t fallback) {
            if (!part) return fallback;
            std::int64_t v = eval(*part).i;
            if (v < 0) v = std::max<std::int64_t>(v + size, step > 0 ? 0 : -1);
            return std::min<std::int64_t>(v, step > 0 ? size : size - 1);
        };
        const std::int64_t start = bound(sub.kids[0], step > 0 ? 0 : size - 1);
        const std::int64_t stop = bound(sub.kids[1], step > 0 ? size : -1);
        Value out;
        out.type = list.type;
        for (std::int64_t k = start; step > 0 ? k < stop : k > stop; k += step) {
            if (list.type == Type::Shape)
                out.ints.push_back(list.ints[std::size_t(k)]);
            else
                out.floats.push_back(list.floats[std::size_t(k)]);
        }
        return out;
    }

    Value unary(const Node& n)
    {
        Value v = eval(*n.kids[0]);
        if (n.op == Op::Pos) return v;
        if (v.type == Type::Float) return Value::ofFloat(-v.f);
        if (v.i == INT64_MIN) fail(n.span, "rule.overflow", "integer overflow in negation");
        return Value::ofInt(-v.i);
    }

    Value binary(const Node& n)
    {
        Value a = eval(*n.kids[0]);
        Value b = eval(*n.kids[1]);
        const Type t = n.type;
        if (t == Type::Shape || t == Type::FloatList) return listOp(n, std::move(a), std::move(b));
        if (t == Type::Str) return Value::ofStr(a.s + b.s);
        if (t == Type::Float) {
            const double x = a.asDouble(), y = b.asDouble();
            switch (n.op) {
            case Op::Add:
                return Value::ofFloat(x + y);
            case Op::Sub:
                return Value::ofFloat(x - y);
            case Op::Mul:
                return Value::ofFloat(x * y);
            case Op::Div:
                if (y == 0) fail(n.span, "rule.division-by-zero", "division by zero");
                return Value::ofFloat(x / y);
            default:
                break;
            }
            fail(n.span, "rule.internal", "bad float operator");
        }
        std::int64_t r = 0;
        bool ok = true;
        switch (n.op) {
        case Op::Add:
            ok = checkedAdd(a.i, b.i, r);
            break;
        case Op::Sub:
            ok = !__builtin_sub_overflow(a.i, b.i, &r);
            break;
        case Op::Mul:
            ok = checkedMul(a.i, b.i, r);
            break;
        case Op::FloorDiv:
        case Op::Mod:
            if (b.i == 0)
                fail(n.span, "rule.division-by-zero",
                     std::string(n.op == Op::Mod ? "modulo" : "integer division") + " by zero");
            if (a.i == INT64_MIN && b.i == -1)
                ok = false;
            else
                r = n.op == Op::FloorDiv ? floorDiv(a.i, b.i) : floorMod(a.i, b.i);
            break;
        default:
            fail(n.span, "rule.internal", "bad integer operator");
        }
        if (!ok)
            fail(n.span, "rule.overflow",
                 std::string("integer overflow in ") + a.toString() + " " + opSpelling(n.op) + " " +
                     b.toString());
        return Value::ofInt(r);
    }

    Value listOp(const Node& n, Value a, Value b)
    {
        if (n.op == Op::Mul) {
            Value& list = isList(a.type) ? a : b;
            const std::int64_t times = isList(a.type) ? b.i : a.i;
            Value out;
            out.type = n.type;
            // An empty list or a count <= 0 gives [] without looping `times` times.
            if (list.listSize() == 0 || times <= 0) return out;
            std::int64_t total = 0;
            if (!checkedMul(std::int64_t(list.listSize()), times, total) ||
                total > kMaxRuleListLength)
                fail(n.span, "rule.value-error", "list repetition is too large");
            for (std::int64_t k = 0; k < times; ++k) {
                if (n.type == Type::Shape)
                    out.ints.insert(out.ints.end(), list.ints.begin(), list.ints.end());
                else
                    for (std::size_t e = 0; e < list.listSize(); ++e)
                        out.floats.push_back(list.listElement(e));
            }
            return out;
        }
        if (a.listSize() + b.listSize() > std::size_t(kMaxRuleListLength))
            fail(n.span, "rule.value-error", "list concatenation is too long");
        if (n.type == Type::Shape) {
            a.ints.insert(a.ints.end(), b.ints.begin(), b.ints.end());
            return a;
        }
        Value out = widen(std::move(a));
        Value tail = widen(std::move(b));
        out.floats.insert(out.floats.end(), tail.floats.begin(), tail.floats.end());
        return out;
    }

    static bool compareOne(Op op, const Value& a, const Value& b)
    {
        switch (op) {
        case Op::Eq:
            return a == b;
        case Op::Ne:
            return !(a == b);
        case Op::In:
        case Op::NotIn: {
            bool found = false;
            for (std::size_t k = 0; k < b.listSize() && !found; ++k)
                found = (a.type == Type::Int && b.type == Type::Shape)
                            ? a.i == b.ints[k]
                            : a.asDouble() == b.listElement(k);
            return op == Op::In ? found : !found;
        }
        default:
            break;
        }
        if (a.type == Type::Int && b.type == Type::Int) {
            switch (op) {
            case Op::Lt:
                return a.i < b.i;
            case Op::Le:
                return a.i <= b.i;
            case Op::Gt:
                return a.i > b.i;
            default:
                return a.i >= b.i;
            }
        }
        const double x = a.asDouble(), y = b.asDouble();
        switch (op) {
        case Op::Lt:
            return x < y;
        case Op::Le:
            return x <= y;
        case Op::Gt:
            return x > y;
        default:
            return x >= y;
        }
    }

    Value compare(const Node& n)
    {
        Value left = eval(*n.kids[0]);
        for (std::size_t k = 0; k < n.ops.size(); ++k) {
            Value right = eval(*n.kids[k + 1]);
            if (!compareOne(n.ops[k], left, right)) return Value::ofBool(false);
            left = std::move(right);
        }
        return Value::ofBool(true);
    }

    Value call(const Node& n)
    {
        std::vector<Value> args;
        args.reserve(n.kids.size());
        for (const auto& kid : n.kids)
            args.push_back(eval(*kid));
        auto result = callBuiltin(n.builtin, args);
        if (auto* failure = std::get_if<BuiltinFailure>(&result)) {
            fail(failureSpan(n, *failure), failure->code, failure->message);
        }
        return std::move(std::get<Value>(result));
    }

private:
    [[noreturn]] static void unchecked(const Node& n)
    {
        fail(n.span, "rule.internal", "rule was not checked before evaluation");
    }

    const RuleBindings& m_b;
};

} // namespace

std::variant<Value, RuleError> evaluate(const Node& root, const RuleBindings& bindings)
{
    try {
        return Evaluator(bindings).eval(root);
    } catch (const EvalFailure& failure) {
        return failure.error;
    }
}

} // namespace ptowb::rules
