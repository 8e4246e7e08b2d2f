#include "rules/rule_builtins.h"

#include "rules/shape_functions.h"

#include <cmath>
#include <iterator>

namespace ptowb::rules {
namespace {

struct BuiltinEntry
{
    Builtin builtin;
    const char* name;
    const char* signature;
    const char* doc;
};

constexpr BuiltinEntry kBuiltins[] = {
    {Builtin::Min, "min", "min(a, b, ...) or min(list)", "the smallest of its arguments"},
    {Builtin::Max, "max", "max(a, b, ...) or max(list)", "the largest of its arguments"},
    {Builtin::Abs, "abs", "abs(number)", "the absolute value"},
    {Builtin::Len, "len", "len(list)", "the length of a list (of a shape: the rank)"},
    {Builtin::Prod, "prod", "prod(list)", "the product of a list (of a shape: its element count)"},
    {Builtin::Sum, "sum", "sum(list)", "the sum of a list"},
    {Builtin::CeilDiv, "ceil_div", "ceil_div(int, int)", "(a + b - 1) // b"},
    {Builtin::Broadcast, "broadcast", "broadcast(shape, shape, ...)",
     "the NumPy broadcast of shapes"},
    {Builtin::Promote, "promote", "promote(dtype, dtype, ...)", "torch's type promotion"},
    {Builtin::Reduce, "reduce", "reduce(shape, dims, keepdim=False)",
     "the shape after reducing dims"},
    {Builtin::Transpose, "transpose", "transpose(shape, dim0, dim1)",
     "the shape with two dims swapped"},
    {Builtin::MatmulShape, "matmul_shape",
     "matmul_shape(a_shape, b_shape, trans_a=False, trans_b=False)",
     "the shape of a (batched) matmul"},
};

// The table is indexed by Builtin: its entries follow the enumeration's order.
constexpr bool followsEnum()
{
    for (std::size_t k = 0; k < std::size(kBuiltins); ++k)
        if (std::size_t(kBuiltins[k].builtin) != k) return false;
    return true;
}
static_assert(followsEnum(), "kBuiltins must list the builtins in the order of enum Builtin");

BuiltinFailure argError(int arg, Builtin b, const std::string& what)
{
    return {arg, "rule.type-error",
            std::string(builtinName(b)) + ": " + what + "; expected " + builtinSignature(b)};
}

BuiltinFailure arityError(Builtin b, std::size_t got)
{
    return {-1, "rule.arity",
            std::string(builtinName(b)) + " takes " + builtinSignature(b) + ", got " +
                std::to_string(got) + " argument" + (got == 1 ? "" : "s")};
}

std::variant<Type, BuiltinFailure> expectTypes(Builtin b, std::span<const Type> args,
                                               std::initializer_list<Type> wanted,
                                               std::size_t required, Type result)
{
    if (args.size() < required || args.size() > wanted.size()) return arityError(b, args.size());
    std::size_t k = 0;
    for (Type w : wanted) {
        if (k >= args.size()) break;
        const bool ok = args[k] == w || (w == Type::Float && args[k] == Type::Int) ||
                        (w == Type::FloatList && args[k] == Type::Shape);
        if (!ok)
            return argError(int(k), b,
                            "argument " + std::to_string(k + 1) + " is " + typeName(args[k]) +
                                ", not " + typeName(w));
        ++k;
    }
    return result;
}

BuiltinFailure fromShapeError(const shapefn::ShapeError& e, Builtin b)
{
    return {e.argument, "rule.shape-error", std::string(builtinName(b)) + ": " + e.message};
}

std::variant<Value, BuiltinFailure> fromShapeResult(shapefn::ShapeResult r, Builtin b)
{
    if (auto* e = std::get_if<shapefn::ShapeError>(&r)) return fromShapeError(*e, b);
    return Value::ofShape(std::move(std::get<shapefn::Shape>(r)));
}

} // namespace

bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t& out)
{
    return !__builtin_add_overflow(a, b, &out);
}
bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t& out)
{
    return !__builtin_mul_overflow(a, b, &out);
}

std::optional<Builtin> builtinFromName(std::string_view name)
{
    for (const auto& e : kBuiltins)
        if (name == e.name) return e.builtin;
    return std::nullopt;
}

std::vector<std::string> builtinNames()
{
    std::vector<std::string> names;
    for (const auto& e : kBuiltins)
        names.emplace_back(e.name);
    return names;
}

const char* builtinName(Builtin builtin)
{
    return kBuiltins[std::size_t(builtin)].name;
}

const char* builtinSignature(Builtin builtin)
{
    return kBuiltins[std::size_t(builtin)].signature;
}

const char* builtinDoc(Builtin builtin)
{
    return kBuiltins[std::size_t(builtin)].doc;
}

std::variant<Type, BuiltinFailure> checkBuiltin(Builtin b, std::span<const Type> args)
{
    switch (b) {
    case Builtin::Min:
    case Builtin::Max: {
        if (args.empty()) return arityError(b, 0);
        if (args.size() == 1) {
            if (!isList(args[0]))
                return argError(0, b,
                                std::string("a single argument must be a list, not ") +
                                    typeName(args[0]));
            return args[0] == Type::Shape ? Type::Int : Type::Float;
        }
        bool allInt = true;
        for (std::size_t k = 0; k < args.size(); ++k) {
            if (!isNumeric(args[k]))
                return argError(int(k), b,
                                "argument " + std::to_string(k + 1) + " is " + typeName(args[k]) +
                                    ", not a number");
            allInt = allInt && args[k] == Type::Int;
        }
        return allInt ? Type::Int : Type::Float;
    }
    case Builtin::Abs:
        if (args.size() != 1) return arityError(b, args.size());
        if (!isNumeric(args[0]))
            return argError(0, b,
                            std::string("argument is ") + typeName(args[0]) + ", not a number");
        return args[0];
    case Builtin::Len:
    case Builtin::Prod:
    case Builtin::Sum:
        if (args.size() != 1) return arityError(b, args.size());
        if (!isList(args[0]))
            return argError(0, b, std::string("argument is ") + typeName(args[0]) + ", not a list");
        if (b == Builtin::Len) return Type::Int;
        return args[0] == Type::Shape ? Type::Int : Type::Float;
    case Builtin::CeilDiv:
        return expectTypes(b, args, {Type::Int, Type::Int}, 2, Type::Int);
    case Builtin::Broadcast:
    case Builtin::Promote: {
        const Type want = b == Builtin::Broadcast ? Type::Shape : Type::DType;
        if (args.empty()) return arityError(b, 0);
        for (std::size_t k = 0; k < args.size(); ++k)
            if (args[k] != want)
                return argError(int(k), b,
                                "argument " + std::to_string(k + 1) + " is " + typeName(args[k]) +
                                    ", not " + typeName(want));
        return want;
    }
    case Builtin::Reduce: {
        if (args.size() < 2 || args.size() > 3) return arityError(b, args.size());
        if (args[0] != Type::Shape)
            return argError(0, b,
                            std::string("argument 1 is ") + typeName(args[0]) + ", not shape");
        if (args[1] != Type::Int && args[1] != Type::Shape)
            return argError(1, b,
                            std::string("dims is ") + typeName(args[1]) +
                                ", not an int or a list of ints");
        if (args.size() == 3 && args[2] != Type::Bool)
            return argError(2, b, std::string("keepdim is ") + typeName(args[2]) + ", not bool");
        return Type::Shape;
    }
    case Builtin::Transpose:
        return expectTypes(b, args, {Type::Shape, Type::Int, Type::Int}, 3, Type::Shape);
    case Builtin::MatmulShape:
        return expectTypes(b, args, {Type::Shape, Type::Shape, Type::Bool, Type::Bool}, 2,
                           Type::Shape);
    }
    return arityError(b, args.size());
}

std::variant<Value, BuiltinFailure> callBuiltin(Builtin b, std::vector<Value>& args)
{
    switch (b) {
    case Builtin::Min:
    case Builtin::Max: {
        const bool isMin = b == Builtin::Min;
        if (args.size() == 1) {
            const Value& list = args[0];
            if (list.listSize() == 0)
                return BuiltinFailure{0, "rule.value-error",
                                      std::string(builtinName(b)) + "() of an empty list"};
            if (list.type == Type::Shape) {
                std::int64_t best = list.ints[0];
                for (auto v : list.ints)
                    best = isMin ? std::min(best, v) : std::max(best, v);
                return Value::ofInt(best);
            }
            double best = list.floats[0];
            for (auto v : list.floats)
                best = isMin ? std::min(best, v) : std::max(best, v);
            return Value::ofFloat(best);
        }
        bool allInt = true;
        for (const auto& a : args)
            allInt = allInt && a.type == Type::Int;
        if (allInt) {
            std::int64_t best = args[0].i;
            for (const auto& a : args)
                best = isMin ? std::min(best, a.i) : std::max(best, a.i);
            return Value::ofInt(best);
        }
        double best = args[0].asDouble();
        for (const auto& a : args)
            best = isMin ? std::min(best, a.asDouble()) : std::max(best, a.asDouble());
        return Value::ofFloat(best);
    }
    case Builtin::Abs:
        if (args[0].type == Type::Float) return Value::ofFloat(std::fabs(args[0].f));
        if (args[0].i == INT64_MIN)
            return BuiltinFailure{0, "rule.overflow", "abs: integer overflow"};
        return Value::ofInt(args[0].i < 0 ? -args[0].i : args[0].i);
    case Builtin::Len:
        return Value::ofInt(std::int64_t(args[0].listSize()));
    case Builtin::Prod:
    case Builtin::Sum: {
        const bool isProd = b == Builtin::Prod;
        if (args[0].type == Type::FloatList) {
            double acc = isProd ? 1.0 : 0.0;
            for (double v : args[0].floats)
                acc = isProd ? acc * v : acc + v;
            return Value::ofFloat(acc);
        }
        std::int64_t acc = isProd ? 1 : 0;
        for (std::int64_t v : args[0].ints)
            if (!(isProd ? checkedMul(acc, v, acc) : checkedAdd(acc, v, acc)))
                return BuiltinFailure{-1, "rule.overflow",
                                      std::string(builtinName(b)) + ": integer overflow"};
        return Value::ofInt(acc);
    }
    case Builtin::CeilDiv: {
        const std::int64_t a = args[0].i, d = args[1].i;
        if (d == 0) return BuiltinFailure{1, "rule.division-by-zero", "ceil_div: division by zero"};
        if (a == INT64_MIN && d == -1)
            return BuiltinFailure{-1, "rule.overflow", "ceil_div: integer overflow"};
        // Python: -(-a // d), with floor division.
        std::int64_t q = a / d;
        if ((a % d != 0) && ((a < 0) == (d < 0))) ++q;
        return Value::ofInt(q);
    }
    case Builtin::Broadcast: {
        std::vector<shapefn::Shape> shapes;
        shapes.reserve(args.size());
        for (auto& a : args)
            shapes.push_back(std::move(a.ints));
        return fromShapeResult(shapefn::broadcast(shapes), b);
    }
    case Builtin::Promote: {
        DType result = args[0].dtype;
        for (const auto& a : args)
            result = promoteTypes(result, a.dtype);
        return Value::ofDType(result);
    }
    case Builtin::Reduce: {
        std::vector<std::int64_t> dims =
            args[1].type == Type::Int ? std::vector<std::int64_t>{args[1].i} : args[1].ints;
        const bool keepdim = args.size() == 3 && args[2].asBool();
        return fromShapeResult(shapefn::reduce(args[0].ints, dims, keepdim), b);
    }
    case Builtin::Transpose:
        return fromShapeResult(shapefn::transpose(args[0].ints, args[1].i, args[2].i), b);
    case Builtin::MatmulShape: {
        const bool ta = args.size() > 2 && args[2].asBool();
        const bool tb = args.size() > 3 && args[3].asBool();
        return fromShapeResult(
            shapefn::matmul(std::move(args[0].ints), std::move(args[1].ints), ta, tb), b);
    }
    }
    return BuiltinFailure{-1, "rule.internal", "unknown builtin"};
}

Span failureSpan(const Node& call, const BuiltinFailure& failure)
{
    return failure.argument >= 0 && std::size_t(failure.argument) < call.kids.size()
               ? call.kids[std::size_t(failure.argument)]->span
               : call.span;
}

} // namespace ptowb::rules
