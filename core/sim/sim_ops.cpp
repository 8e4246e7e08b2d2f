// Elementwise ops and the run state; reductions, matmul and data movement are in
// sim_ops_data.cpp, indexing (gather, scatter, index_put_) in sim_ops_index.cpp, the
// unified-buffer check in sim_tile.cpp.
#include "sim/sim_ops.h"

#include "rules/shape_functions.h"
#include "sim/sim_kernels.h"
#include "torchscript/torchscript.h"

#include <algorithm>
#include <cmath>

namespace ptowb::sim {

SimState::SimState(std::optional<cost::Platform> platform) : m_platform(std::move(platform))
{
    if (m_platform) {
        m_model.emplace(*m_platform);
        cost.platform = m_platform->name;
    }
}

std::int64_t SimState::vecTiles(at::IntArrayRef sizes) const
{
    std::int64_t tiles = 1;
    for (std::size_t d = 0; d < sizes.size() && d < vecTile.size(); ++d)
        if (vecTile[d] > 0)
            tiles *= std::max<std::int64_t>(1, (sizes[d] + vecTile[d] - 1) / vecTile[d]);
    return tiles;
}

void SimState::vectorCost(const std::string& what, const at::Tensor& t, int passes)
{
    if (m_model)
        m_model->vector(line, what + " " + shapeText(t.sizes()) + " " + dtypeText(t),
                        cost::VectorWork{t.numel() * passes, int(t.element_size()),
                                         vecTiles(t.sizes()) * passes},
                        cost);
}

void SimState::cubeCost(const std::string& what, std::int64_t m, std::int64_t n, std::int64_t k)
{
    if (m_model) m_model->cube(line, what, m, n, k, cost);
}

void SimState::readOperands(const std::vector<at::Tensor>& operands)
{
    for (std::size_t k = 0; k < operands.size(); ++k) {
        const at::Tensor& t = operands[k];
        const bool global =
            std::find(m_globals.begin(), m_globals.end(),
                      static_cast<const void*>(t.unsafeGetTensorImpl())) != m_globals.end();
        const bool seen = std::any_of(operands.begin(), operands.begin() + std::ptrdiff_t(k),
                                      [&](const at::Tensor& o) { return o.is_same(t); });
        if (global && !seen)
            memoryCost("load " + shapeText(t.sizes()), t, std::int64_t(t.element_size()));
    }
}

void SimState::reductionCost(const std::string& what, const at::Tensor& x,
                             const std::vector<std::int64_t>& dims, int passes)
{
    vectorCost(what, x, passes);
    std::int64_t across = 1;
    for (const std::int64_t d : dims)
        if (d >= 0 && d < x.dim() && std::size_t(d) < vecTile.size() && vecTile[std::size_t(d)] > 0)
            across *= (x.size(d) + vecTile[std::size_t(d)] - 1) / vecTile[std::size_t(d)];
    if (across > 2) cost.elapsed.serializeIteration();
}

void SimState::memoryCost(const std::string& what, const at::Tensor& t, std::int64_t itemSize)
{
    if (m_model) m_model->memory(line, what, t.numel() * itemSize, vecTiles(t.sizes()), cost);
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

at::Tensor integerOnly(const char* fn, const at::Tensor& x)
{
    if (x.is_floating_point())
        throw OpError{std::string("pypto.") + fn + " needs integer or bool tensors, got " +
                          dtypeText(x),
                      "sim.type"};
    return x;
}

// Rounding an integer leaves it as it is.
at::Tensor roundedToInteger(const at::Tensor& x, at::Tensor (at::Tensor::*round)() const)
{
    return x.is_floating_point() ? (x.*round)() : x;
}

at::Tensor computeUnary(UnaryKernel kernel, const at::Tensor& x)
{
    using K = UnaryKernel;
    switch (kernel) {
    case K::abs:
        return x.abs();
    case K::acos:
        return x.acos();
    case K::acosh:
        return x.acosh();
    case K::asin:
        return x.asin();
    case K::asinh:
        return x.asinh();
    case K::atan:
        return x.atan();
    case K::atanh:
        return x.atanh();
    case K::bitwise_not:
        if (x.is_floating_point())
            throw OpError{"pypto.bitwise_not needs an integer or bool tensor, got " + dtypeText(x),
                          "sim.type"};
        return x.bitwise_not();
    case K::ceil:
        return roundedToInteger(x, &at::Tensor::ceil);
    case K::cos:
        return x.cos();
    case K::cosh:
        return x.cosh();
    case K::erf:
        return x.erf();
    case K::erfc:
        return x.erfc();
    case K::exp:
        return x.exp();
    case K::exp2:
        return x.exp2();
    case K::expm1:
        return x.expm1();
    case K::floor:
        return roundedToInteger(x, &at::Tensor::floor);
    case K::isfinite:
        return x.isfinite();
    case K::isnan:
        return x.isnan();
    case K::log:
        return x.log();
    case K::log10:
        return x.log10();
    case K::log1p:
        return x.log1p();
    case K::log2:
        return x.log2();
    case K::logical_not:
        return x.logical_not();
    case K::neg:
        return x.neg();
    case K::reciprocal:
        return x.reciprocal();
    case K::relu:
        return x.relu();
    case K::rsqrt:
        return x.rsqrt();
    case K::sigmoid:
        return x.sigmoid();
    case K::sign:
        return x.sign();
    case K::sin:
        return x.sin();
    case K::sinh:
        return x.sinh();
    case K::sqrt:
        return x.sqrt();
    case K::tan:
        return x.tan();
    case K::tanh:
        return x.tanh();
    case K::trunc:
        return roundedToInteger(x, &at::Tensor::trunc);
    }
    __builtin_unreachable(); // every kernel returns above
}

at::Tensor computeBinary(BinaryKernel kernel, const at::Tensor& x, const at::Tensor& y)
{
    using K = BinaryKernel;
    switch (kernel) {
    case K::add:
        return x + y;
    case K::atan2:
        return at::atan2(x, y);
    case K::bitwise_and:
        return integerOnly("bitwise_and", x).bitwise_and(integerOnly("bitwise_and", y));
    case K::bitwise_left_shift:
        return at::bitwise_left_shift(integerOnly("bitwise_left_shift", x), y);
    case K::bitwise_or:
        return integerOnly("bitwise_or", x).bitwise_or(integerOnly("bitwise_or", y));
    case K::bitwise_right_shift:
        return at::bitwise_right_shift(integerOnly("bitwise_right_shift", x), y);
    case K::bitwise_xor:
        return integerOnly("bitwise_xor", x).bitwise_xor(integerOnly("bitwise_xor", y));
    case K::copysign:
        return at::copysign(x, y);
    case K::div:
        return x.is_floating_point() ? x / y : at::div(x, y, "trunc");
    case K::floor_divide:
        return at::div(x, y, "floor");
    case K::fmod:
        return at::fmod(x, y);
    case K::hypot:
        return at::hypot(x, y);
    case K::logical_and:
        return at::logical_and(x, y);
    case K::maximum:
        return at::maximum(x, y);
    case K::minimum:
        return at::minimum(x, y);
    case K::mul:
        return x * y;
    case K::pow:
        return at::pow(x, y);
    case K::remainder:
        return at::remainder(x, y);
    case K::sub:
        return x - y;
    }
    __builtin_unreachable(); // every kernel returns above
}

at::Tensor computeCompare(CompareKernel kernel, const at::Tensor& x, const at::Tensor& y)
{
    using K = CompareKernel;
    switch (kernel) {
    case K::eq:
        return x == y;
    case K::ge:
        return x >= y;
    case K::gt:
        return x > y;
    case K::le:
        return x <= y;
    case K::lt:
        return x < y;
    case K::ne:
        return x != y;
    }
    __builtin_unreachable(); // every kernel returns above
}

// A bool result (isnan, logical_and, ...) is the answer itself, not a value to round.
at::Tensor roundedUnlessBool(const at::Tensor& result, at::ScalarType dtype)
{
    return result.scalar_type() == at::kBool ? result : rounded(result, dtype);
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
    const at::Tensor r =
        roundedUnlessBool(computeUnary(unaryKernel(name), widened(x)), x.scalar_type());
    s.checkTile(x, {x}, r, "pypto." + name);
    s.vectorCost("pypto." + name, x);
    s.readOperands({x});
    return r;
}

at::Tensor roundDecimals(SimState& s, const at::Tensor& x, std::int64_t decimals)
{
    const double scale = std::pow(10.0, double(decimals));
    const at::Tensor r =
        decimals == 0 ? rounded(roundedToInteger(widened(x), &at::Tensor::round), x.scalar_type())
                      : rounded((widened(x) * scale).round() / scale, x.scalar_type());
    s.checkTile(x, {x}, r, "pypto.round");
    s.vectorCost("pypto.round", x, decimals == 0 ? 1 : 3);
    s.readOperands({x});
    return r;
}

at::Tensor binaryOp(SimState& s, const std::string& name, const Operand& a, const Operand& b)
{
    const BinaryKernel kernel = binaryKernel(name);
    if (!a.tensor && !b.tensor)
        throw OpError{"pypto." + name + " needs at least one tensor operand", "sim.type"};
    checkBroadcast(a, b, "pypto." + name);
    const at::ScalarType type = operandType(a, b);
    const at::Tensor r = computeBinary(kernel, operandTensor(a, type), operandTensor(b, type));
    const at::Tensor result = roundedUnlessBool(r, type);
    std::vector<at::Tensor> operands;
    for (const Operand* o : {&a, &b})
        if (o->tensor) operands.push_back(*o->tensor);
    s.checkTile(shaped(result, a, b), operands, result, "pypto." + name);
    s.vectorCost("pypto." + name, shaped(r, a, b));
    s.readOperands(operands);
    return result;
}

at::Tensor compareOp(SimState& s, const std::string& name, const Operand& a, const Operand& b)
{
    const CompareKernel kernel = compareKernel(name);
    if (!a.tensor && !b.tensor)
        throw OpError{"pypto." + name + " needs at least one tensor operand", "sim.type"};
    checkBroadcast(a, b, "pypto." + name);
    const at::ScalarType type = operandType(a, b);
    const at::Tensor r = computeCompare(kernel, operandTensor(a, type), operandTensor(b, type));
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
    s.readOperands(operands);
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
