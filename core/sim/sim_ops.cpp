// Elementwise ops and the run state; reductions, matmul and data movement are in
// sim_ops_data.cpp, the unified-buffer check in sim_tile.cpp.
#include "sim/sim_ops.h"

#include "rules/shape_functions.h"
#include "torchscript/torchscript.h"

#include <cmath>
#include <functional>
#include <map>

namespace ptowb::sim {

SimState::SimState(std::optional<cost::Platform> platform) : m_platform(std::move(platform))
{
    if (m_platform) {
        m_model.emplace(*m_platform);
        cost.platform = m_platform->name;
    }
}

void SimState::vectorCost(const std::string& what, const at::Tensor& t, int passes)
{
    if (m_model)
        m_model->vector(line, what + " " + shapeText(t.sizes()) + " " + dtypeText(t),
                        t.numel() * passes, int(t.element_size()), cost);
}

void SimState::cubeCost(const std::string& what, std::int64_t m, std::int64_t n, std::int64_t k)
{
    if (m_model) m_model->cube(line, what, m, n, k, cost);
}

void SimState::memoryCost(const std::string& what, std::int64_t bytes)
{
    if (m_model) m_model->memory(line, what, bytes, cost);
}

std::string shapeText(at::IntArrayRef sizes)
{
    return shapefn::toString(sizes.vec());
}

std::string dtypeText(const at::Tensor& t)
{
    const auto d = torchscript::fromTorch(t.scalar_type());
    return d ? std::string(dtypeName(*d)) : std::string(c10::toString(t.scalar_type()));
}

DType dtypeOf(const at::Tensor& t)
{
    if (auto d = torchscript::fromTorch(t.scalar_type())) return *d;
    throw OpError{std::string("unsupported tensor dtype ") + c10::toString(t.scalar_type()),
                  "sim.type"};
}

static bool isLowPrecision(const at::Tensor& t)
{
    return t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16;
}

at::Tensor rounded(const at::Tensor& result, at::ScalarType dtype)
{
    return result.scalar_type() == dtype ? result : result.to(dtype);
}
at::Tensor widened(const at::Tensor& t)
{
    return isLowPrecision(t) ? t.to(at::kFloat) : t;
}

namespace {

using Unary = std::function<at::Tensor(const at::Tensor&)>;
using Binary = std::function<at::Tensor(const at::Tensor&, const at::Tensor&)>;

// Ops whose result is not in the operand's dtype.
bool givesBool(const std::string& name)
{
    return name == "isnan" || name == "isinf" || name == "isfinite" || name == "logical_not";
}

const std::map<std::string, Unary>& unaryTable()
{
    static const std::map<std::string, Unary> table = {
        {"abs", [](const at::Tensor& x) { return x.abs(); }},
        {"exp", [](const at::Tensor& x) { return x.exp(); }},
        {"exp2", [](const at::Tensor& x) { return x.exp2(); }},
        {"expm1", [](const at::Tensor& x) { return x.expm1(); }},
        {"log", [](const at::Tensor& x) { return x.log(); }},
        {"log1p", [](const at::Tensor& x) { return x.log1p(); }},
        {"log2", [](const at::Tensor& x) { return x.log2(); }},
        {"log10", [](const at::Tensor& x) { return x.log10(); }},
        {"sqrt", [](const at::Tensor& x) { return x.sqrt(); }},
        {"rsqrt", [](const at::Tensor& x) { return x.rsqrt(); }},
        {"reciprocal", [](const at::Tensor& x) { return x.reciprocal(); }},
        {"neg", [](const at::Tensor& x) { return x.neg(); }},
        {"sigmoid", [](const at::Tensor& x) { return x.sigmoid(); }},
        {"tanh", [](const at::Tensor& x) { return x.tanh(); }},
        {"relu", [](const at::Tensor& x) { return x.relu(); }},
        {"sin", [](const at::Tensor& x) { return x.sin(); }},
        {"cos", [](const at::Tensor& x) { return x.cos(); }},
        {"tan", [](const at::Tensor& x) { return x.tan(); }},
        {"asin", [](const at::Tensor& x) { return x.asin(); }},
        {"acos", [](const at::Tensor& x) { return x.acos(); }},
        {"atan", [](const at::Tensor& x) { return x.atan(); }},
        {"sinh", [](const at::Tensor& x) { return x.sinh(); }},
        {"cosh", [](const at::Tensor& x) { return x.cosh(); }},
        {"asinh", [](const at::Tensor& x) { return x.asinh(); }},
        {"acosh", [](const at::Tensor& x) { return x.acosh(); }},
        {"atanh", [](const at::Tensor& x) { return x.atanh(); }},
        {"erf", [](const at::Tensor& x) { return x.erf(); }},
        {"erfc", [](const at::Tensor& x) { return x.erfc(); }},
        {"ceil", [](const at::Tensor& x) { return x.is_floating_point() ? x.ceil() : x; }},
        {"floor", [](const at::Tensor& x) { return x.is_floating_point() ? x.floor() : x; }},
        {"trunc", [](const at::Tensor& x) { return x.is_floating_point() ? x.trunc() : x; }},
        {"round", [](const at::Tensor& x) { return x.is_floating_point() ? x.round() : x; }},
        {"sign", [](const at::Tensor& x) { return x.sign(); }},
        {"square", [](const at::Tensor& x) { return x * x; }},
        {"gelu", [](const at::Tensor& x) { return at::gelu(x); }},
        {"silu", [](const at::Tensor& x) { return at::silu(x); }},
        {"isnan", [](const at::Tensor& x) { return x.isnan(); }},
        {"isinf", [](const at::Tensor& x) { return x.isinf(); }},
        {"isfinite", [](const at::Tensor& x) { return x.isfinite(); }},
        {"logical_not", [](const at::Tensor& x) { return x.logical_not(); }},
        {"bitwise_not",
         [](const at::Tensor& x) {
             if (x.is_floating_point())
                 throw OpError{"pypto.bitwise_not needs an integer or bool tensor, got " +
                                   dtypeText(x),
                               "sim.type"};
             return x.bitwise_not();
         }},
    };
    return table;
}

at::Tensor integerOnly(const char* fn, const at::Tensor& x)
{
    if (x.is_floating_point())
        throw OpError{std::string("pypto.") + fn + " needs integer or bool tensors, got " +
                          dtypeText(x),
                      "sim.type"};
    return x;
}

const std::map<std::string, Binary>& binaryTable()
{
    static const std::map<std::string, Binary> table = {
        {"add", [](const at::Tensor& x, const at::Tensor& y) { return x + y; }},
        {"sub", [](const at::Tensor& x, const at::Tensor& y) { return x - y; }},
        {"mul", [](const at::Tensor& x, const at::Tensor& y) { return x * y; }},
        {"div",
         [](const at::Tensor& x, const at::Tensor& y) {
             return x.is_floating_point() ? x / y : at::div(x, y, "trunc");
         }},
        {"true_div", [](const at::Tensor& x,
                        const at::Tensor& y) { return x.to(at::kFloat) / y.to(at::kFloat); }},
        {"floor_divide",
         [](const at::Tensor& x, const at::Tensor& y) { return at::div(x, y, "floor"); }},
        {"remainder", [](const at::Tensor& x, const at::Tensor& y) { return at::remainder(x, y); }},
        {"fmod", [](const at::Tensor& x, const at::Tensor& y) { return at::fmod(x, y); }},
        {"pow", [](const at::Tensor& x, const at::Tensor& y) { return at::pow(x, y); }},
        {"maximum", [](const at::Tensor& x, const at::Tensor& y) { return at::maximum(x, y); }},
        {"minimum", [](const at::Tensor& x, const at::Tensor& y) { return at::minimum(x, y); }},
        {"hypot", [](const at::Tensor& x, const at::Tensor& y) { return at::hypot(x, y); }},
        {"atan2", [](const at::Tensor& x, const at::Tensor& y) { return at::atan2(x, y); }},
        {"copysign", [](const at::Tensor& x, const at::Tensor& y) { return at::copysign(x, y); }},
        {"logical_and",
         [](const at::Tensor& x, const at::Tensor& y) { return at::logical_and(x, y); }},
        {"logical_or",
         [](const at::Tensor& x, const at::Tensor& y) { return at::logical_or(x, y); }},
        {"logical_xor",
         [](const at::Tensor& x, const at::Tensor& y) { return at::logical_xor(x, y); }},
        {"bitwise_and",
         [](const at::Tensor& x, const at::Tensor& y) {
             return integerOnly("bitwise_and", x).bitwise_and(integerOnly("bitwise_and", y));
         }},
        {"bitwise_or",
         [](const at::Tensor& x, const at::Tensor& y) {
             return integerOnly("bitwise_or", x).bitwise_or(integerOnly("bitwise_or", y));
         }},
        {"bitwise_xor",
         [](const at::Tensor& x, const at::Tensor& y) {
             return integerOnly("bitwise_xor", x).bitwise_xor(integerOnly("bitwise_xor", y));
         }},
        {"bitwise_left_shift",
         [](const at::Tensor& x, const at::Tensor& y) {
             return at::bitwise_left_shift(integerOnly("bitwise_left_shift", x), y);
         }},
        {"bitwise_right_shift",
         [](const at::Tensor& x, const at::Tensor& y) {
             return at::bitwise_right_shift(integerOnly("bitwise_right_shift", x), y);
         }},
    };
    return table;
}

bool isLogical(const std::string& name)
{
    return name.rfind("logical_", 0) == 0;
}

// The dtype both operands take: two tensors promote as torch does; a number takes the tensor's
// dtype (a float number with an integer tensor gives float32, as a Python float would).
at::ScalarType operandType(const Operand& a, const Operand& b)
{
    if (a.tensor && b.tensor)
        return at::promote_types(a.tensor->scalar_type(), b.tensor->scalar_type());
    const at::Tensor& t = a.tensor ? *a.tensor : *b.tensor;
    const Operand& n = a.tensor ? b : a;
    if (!t.is_floating_point() && t.scalar_type() != at::kBool && !n.isInt) return at::kFloat;
    if (t.scalar_type() == at::kBool && !n.tensor) return n.isInt ? at::kLong : at::kFloat;
    return t.scalar_type();
}

at::Tensor operandTensor(const Operand& v, at::ScalarType type)
{
    if (v.tensor) return widened(v.tensor->to(type));
    // The number is first rounded to the tensor dtype, as the device's scalar register holds it.
    const at::Tensor n = v.isInt
                             ? at::full({}, std::int64_t(v.number), at::TensorOptions().dtype(type))
                             : at::full({}, v.number, at::TensorOptions().dtype(type));
    return widened(n);
}

void checkBroadcast(const Operand& a, const Operand& b, const std::string& fn)
{
    if (!a.tensor || !b.tensor) return;
    if (std::holds_alternative<shapefn::Shape>(shapefn::broadcast(
            std::vector<shapefn::Shape>{a.tensor->sizes().vec(), b.tensor->sizes().vec()})))
        return;
    throw OpError{fn + " cannot broadcast shapes " + shapeText(a.tensor->sizes()) + " and " +
                      shapeText(b.tensor->sizes()),
                  "sim.shape"};
}

const at::Tensor& shaped(const at::Tensor& r, const Operand& a, const Operand& b)
{
    return r.dim() ? r : (a.tensor ? *a.tensor : *b.tensor);
}

} // namespace

at::Tensor unaryOp(SimState& s, const std::string& name, const at::Tensor& x)
{
    const auto it = unaryTable().find(name);
    if (it == unaryTable().end())
        throw OpError{"not supported by the simulator: pypto." + name, "sim.unsupported"};
    const at::Tensor w = it->second(widened(x));
    const at::Tensor r = givesBool(name) ? w : rounded(w, x.scalar_type());
    s.checkTile(x, {x}, r, "pypto." + name);
    s.vectorCost("pypto." + name, x);
    return r;
}

at::Tensor roundDecimals(SimState& s, const at::Tensor& x, std::int64_t decimals)
{
    if (decimals == 0) return unaryOp(s, "round", x);
    s.checkTile(x, {x}, x, "pypto.round");
    s.vectorCost("pypto.round", x, 3);
    const double scale = std::pow(10.0, double(decimals));
    return rounded((widened(x) * scale).round() / scale, x.scalar_type());
}

at::Tensor binaryOp(SimState& s, const std::string& name, const Operand& a, const Operand& b)
{
    const auto it = binaryTable().find(name);
    if (it == binaryTable().end())
        throw OpError{"not supported by the simulator: pypto." + name, "sim.unsupported"};
    if (!a.tensor && !b.tensor)
        throw OpError{"pypto." + name + " needs at least one tensor operand", "sim.type"};
    checkBroadcast(a, b, "pypto." + name);
    const at::ScalarType type = operandType(a, b);
    const at::Tensor r = it->second(operandTensor(a, type), operandTensor(b, type));
    const at::Tensor result =
        isLogical(name)
            ? r
            : rounded(r, name == "true_div" && !at::isFloatingType(type) ? at::kFloat : type);
    std::vector<at::Tensor> operands;
    for (const Operand* o : {&a, &b})
        if (o->tensor) operands.push_back(*o->tensor);
    s.checkTile(shaped(result, a, b), operands, result, "pypto." + name);
    s.vectorCost("pypto." + name, shaped(r, a, b));
    return result;
}

at::Tensor compareOp(SimState& s, const std::string& name, const Operand& a, const Operand& b)
{
    if (!a.tensor && !b.tensor)
        throw OpError{"pypto." + name + " needs at least one tensor operand", "sim.type"};
    checkBroadcast(a, b, "pypto." + name);
    const at::ScalarType type = operandType(a, b);
    const at::Tensor x = operandTensor(a, type), y = operandTensor(b, type);
    at::Tensor r;
    if (name == "eq")
        r = x == y;
    else if (name == "ne")
        r = x != y;
    else if (name == "lt")
        r = x < y;
    else if (name == "le")
        r = x <= y;
    else if (name == "gt")
        r = x > y;
    else if (name == "ge")
        r = x >= y;
    else
        throw OpError{"not supported by the simulator: pypto." + name, "sim.unsupported"};
    s.vectorCost("pypto." + name, shaped(r, a, b));
    return r;
}

at::Tensor whereOp(SimState& s, const at::Tensor& condition, const Operand& a, const Operand& b)
{
    if (!a.tensor && !b.tensor) {
        const at::ScalarType type = a.isInt && b.isInt ? at::kLong : at::kFloat;
        return at::where(condition.to(at::kBool), operandTensor(a, type), operandTensor(b, type))
            .to(type);
    }
    checkBroadcast(a, b, "pypto.where");
    const at::ScalarType type = operandType(a, b);
    const at::Tensor r =
        at::where(condition.to(at::kBool), operandTensor(a, type), operandTensor(b, type));
    s.vectorCost("pypto.where", r);
    return rounded(r, type);
}

at::Tensor clipOp(SimState& s, const at::Tensor& x, const std::optional<Operand>& lo,
                  const std::optional<Operand>& hi)
{
    at::Tensor r = widened(x);
    const at::ScalarType type = x.scalar_type();
    if (lo) r = at::maximum(r, operandTensor(*lo, type));
    if (hi) r = at::minimum(r, operandTensor(*hi, type));
    std::vector<at::Tensor> operands{x};
    for (const auto* bound : {&lo, &hi})
        if (*bound && (*bound)->tensor) operands.push_back(*(*bound)->tensor);
    const at::Tensor result = rounded(r, type);
    s.checkTile(x, operands, result, "pypto.clip");
    s.vectorCost("pypto.clip", x);
    return result;
}

std::int64_t normalizedDim(std::int64_t d, std::int64_t rank, const std::string& fn)
{
    const std::int64_t r = std::max<std::int64_t>(rank, 1);
    if (d < -r || d >= r)
        throw OpError{fn + ": dim " + std::to_string(d) + " is out of range for a rank-" +
                          std::to_string(rank) + " tensor (valid: " + std::to_string(-r) + ".." +
                          std::to_string(r - 1) + ")",
                      "sim.shape"};
    return d < 0 ? d + r : d;
}

} // namespace ptowb::sim
