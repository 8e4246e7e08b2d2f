#include "sim/interpreter.h"

#include "torchscript/torchscript.h"

#include <cmath>

namespace ptowb::sim {

void Interpreter::checkTile(const at::Tensor& result, int liveBuffers, const std::string& fn, Pos pos)
{
    if (m_vecTile.empty()) return;
    if (std::int64_t(m_vecTile.size()) != result.dim())
        throw SimError{m_vecTilePos,
                       "the vec tile shape " + shapefn::toString(m_vecTile) + " has rank " + std::to_string(m_vecTile.size()) + ", but " + fn + " at line " +
                           std::to_string(pos.line) + " works on a rank-" + std::to_string(result.dim()) + " tensor " + shapeText(result.sizes()),
                       "sim.tile"};
    if (!m_options.platform) return;
    std::int64_t elements = 1;
    for (std::size_t d = 0; d < m_vecTile.size(); ++d) elements *= std::min(m_vecTile[d], std::max<std::int64_t>(result.size(std::int64_t(d)), 1));
    const std::int64_t bytes = elements * std::int64_t(widened(result).element_size()) * liveBuffers;
    if (bytes > m_options.platform->unifiedBufferBytes)
        throw SimError{m_vecTilePos,
                       "the vec tile shape " + shapefn::toString(m_vecTile) + " needs " + std::to_string(bytes) + " bytes for the " + std::to_string(liveBuffers) +
                           " live buffers of " + fn + " at line " + std::to_string(pos.line) + ", more than the unified buffer of " + m_options.platform->name +
                           " (" + std::to_string(m_options.platform->unifiedBufferBytes) + " bytes)",
                       "sim.tile"};
}

void Interpreter::vectorCost(const std::string& what, const at::Tensor& t, int passes)
{
    if (m_cost) m_cost->vector(m_line, what + " " + shapeText(t.sizes()) + " " + dtypeText(t), t.numel() * passes, int(t.element_size()), m_result.cost);
}

Value Interpreter::unary(const std::string& name, const at::Tensor& x, const Expr& e)
{
    const at::Tensor w = widened(x);
    at::Tensor r;
    if (name == "abs") r = w.abs();
    else if (name == "exp") r = w.exp();
    else if (name == "log") r = w.log();
    else if (name == "sqrt") r = w.sqrt();
    else if (name == "rsqrt") r = w.rsqrt();
    else if (name == "reciprocal") r = w.reciprocal();
    else if (name == "neg") r = -w;
    else if (name == "sigmoid") r = w.sigmoid();
    else if (name == "tanh") r = w.tanh();
    else if (name == "relu") r = w.relu();
    else if (name == "sin") r = w.sin();
    else if (name == "cos") r = w.cos();
    else if (name == "ceil") r = w.ceil();
    else if (name == "floor") r = w.floor();
    else if (name == "round") r = w.round();
    else if (name == "trunc") r = w.trunc();
    else if (name == "logical_not") return Value::ofTensor(w.logical_not());
    else throw SimError{e.pos, "pypto." + name + " is not supported by the simulator", "kernel.unsupported"};
    checkTile(x, 2, "pypto." + name, e.pos);
    vectorCost("pypto." + name, x);
    return tensorResult(rounded(r, x.scalar_type()), name);
}

Value Interpreter::binary(const std::string& op, const Value& a, const Value& b, Pos pos)
{
    if (a.kind != Value::Kind::Tensor && b.kind != Value::Kind::Tensor) return binaryScalar(op, a, b, pos);
    // A Python number takes the tensor's dtype, as pypto.Element(input.dtype, value) does.
    const at::ScalarType type = a.kind == Value::Kind::Tensor && b.kind == Value::Kind::Tensor
                                    ? at::promote_types(a.tensor.scalar_type(), b.tensor.scalar_type())
                                    : (a.kind == Value::Kind::Tensor ? a.tensor : b.tensor).scalar_type();
    if (a.kind == Value::Kind::Tensor && b.kind == Value::Kind::Tensor) checkBroadcast({a.tensor.sizes().vec(), b.tensor.sizes().vec()}, pos, "'" + op + "'");
    auto operand = [&](const Value& v) {
        if (v.kind == Value::Kind::Tensor) return widened(v.tensor.to(type));
        return rounded(at::full({}, scalar(v, pos), at::TensorOptions().dtype(type)), type).to(widened(at::empty({}, at::TensorOptions().dtype(type))).scalar_type());
    };
    const at::Tensor x = operand(a), y = operand(b);
    at::Tensor r;
    if (op == "+") r = x + y;
    else if (op == "-") r = x - y;
    else if (op == "*") r = x * y;
    else if (op == "/") r = x / y;
    else if (op == "**") r = at::pow(x, y);
    else if (op == "max") r = at::maximum(x, y);
    else if (op == "min") r = at::minimum(x, y);
    else if (op == "@") return matmul(a.tensor, b.tensor, dtypeOf(a.tensor, pos), Args{}, Expr{});
    else throw SimError{pos, "operator " + op + " is not supported on tensors", "kernel.unsupported"};
    const at::Tensor& shaped = a.kind == Value::Kind::Tensor ? a.tensor : b.tensor;
    checkTile(r.dim() ? r : shaped, 3, "'" + op + "'", pos);
    vectorCost("'" + op + "'", r.dim() ? r : shaped);
    return tensorResult(rounded(r, type), op);
}

Value Interpreter::binaryScalar(const std::string& op, const Value& a, const Value& b, Pos pos)
{
    if (a.kind == Value::Kind::Int && b.kind == Value::Kind::Int && op != "/" && op != "**") {
        const std::int64_t x = a.i, y = b.i;
        if ((op == "//" || op == "%") && y == 0) throw SimError{pos, "integer division by zero"};
        if (op == "+") return Value::ofInt(x + y);
        if (op == "-") return Value::ofInt(x - y);
        if (op == "*") return Value::ofInt(x * y);
        if (op == "//") return Value::ofInt(x / y - ((x % y != 0) && ((x < 0) != (y < 0))));
        if (op == "%") return Value::ofInt(((x % y) + y) % y);
        if (op == "max") return Value::ofInt(std::max(x, y));
        if (op == "min") return Value::ofInt(std::min(x, y));
    }
    if (a.kind == Value::Kind::Tuple && b.kind == Value::Kind::Tuple && op == "+") {
        std::vector<Value> items = a.items;
        items.insert(items.end(), b.items.begin(), b.items.end());
        return Value::ofTuple(std::move(items));
    }
    const double x = number(a, pos), y = number(b, pos);
    if (op == "+") return Value::ofFloat(x + y);
    if (op == "-") return Value::ofFloat(x - y);
    if (op == "*") return Value::ofFloat(x * y);
    if (op == "/") {
        if (y == 0) throw SimError{pos, "division by zero"};
        return Value::ofFloat(x / y);
    }
    if (op == "**") return Value::ofFloat(std::pow(x, y));
    if (op == "//") return Value::ofFloat(std::floor(x / y));
    throw SimError{pos, "operator " + op + " is not supported on " + describe(a) + " and " + describe(b), "kernel.unsupported"};
}

Value Interpreter::compareTensors(const std::string& op, const Value& a, const Value& b, Pos pos)
{
    const at::Tensor x = a.kind == Value::Kind::Tensor ? widened(a.tensor) : at::full({}, scalar(a, pos));
    const at::Tensor y = b.kind == Value::Kind::Tensor ? widened(b.tensor) : at::full({}, scalar(b, pos));
    checkBroadcast({x.sizes().vec(), y.sizes().vec()}, pos, "'" + op + "'");
    if (op == "==") return Value::ofTensor(x == y);
    if (op == "!=") return Value::ofTensor(x != y);
    if (op == "<") return Value::ofTensor(x < y);
    if (op == "<=") return Value::ofTensor(x <= y);
    if (op == ">") return Value::ofTensor(x > y);
    if (op == ">=") return Value::ofTensor(x >= y);
    throw SimError{pos, "comparison " + op + " is not supported on tensors", "kernel.unsupported"};
}

bool Interpreter::compareScalars(const std::string& op, const Value& a, const Value& b, Pos pos)
{
    if (op == "==" || op == "!=") {
        bool same;
        if (a.kind == Value::Kind::DType || b.kind == Value::Kind::DType) same = a.kind == b.kind && a.dtype == b.dtype;
        else if (a.kind == Value::Kind::Str || b.kind == Value::Kind::Str) same = a.kind == b.kind && a.s == b.s;
        else if (a.kind == Value::Kind::None || b.kind == Value::Kind::None) same = a.kind == b.kind;
        else same = number(a, pos) == number(b, pos);
        return op == "==" ? same : !same;
    }
    if (op == "is" || op == "is not") return (a.kind == b.kind) == (op == "is");
    const double x = number(a, pos), y = number(b, pos);
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    throw SimError{pos, "comparison " + op + " is not supported here", "kernel.unsupported"};
}

Value Interpreter::reduce(const std::string& name, const at::Tensor& x, const Value& dimArg, bool keepdim, const Expr& e)
{
    std::vector<std::int64_t> dims;
    if (dimArg.kind == Value::Kind::None)
        for (std::int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
    else if (dimArg.kind == Value::Kind::Tuple) dims = ints(dimArg, e.pos);
    else dims.push_back(integer(dimArg, e.pos));
    for (auto& d : dims) {
        checkDim(d, x, e.pos, "pypto." + name);
        if (d < 0) d += x.dim();
    }
    checkTile(x, 2, "pypto." + name, e.pos);
    at::Tensor acc = x;
    std::sort(dims.begin(), dims.end());
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) acc = reduceDim(name, acc, *it);
    if (!keepdim)
        for (auto it = dims.rbegin(); it != dims.rend(); ++it) acc = acc.squeeze(*it);
    vectorCost("pypto." + name, x);
    return tensorResult(acc, name);
}

at::Tensor Interpreter::reduceDim(const std::string& name, const at::Tensor& x, std::int64_t dim)
{
    const std::int64_t size = x.size(dim);
    const std::int64_t tile = m_vecTile.empty() ? size : std::max<std::int64_t>(1, m_vecTile[std::size_t(dim)]);
    auto partial = [&](const at::Tensor& chunk) {
        const at::Tensor w = widened(chunk);
        const at::Tensor r = name == "sum" ? w.sum(dim, true) : name == "amax" ? std::get<0>(w.max(dim, true)) : std::get<0>(w.min(dim, true));
        return rounded(r, x.scalar_type());
    };
    at::Tensor acc;
    for (std::int64_t start = 0; start < size; start += tile) {
        const at::Tensor p = partial(x.narrow(dim, start, std::min(tile, size - start)));
        if (!acc.defined()) acc = p;
        else if (name == "sum") acc = rounded(widened(acc) + widened(p), x.scalar_type());
        else acc = name == "amax" ? at::maximum(acc, p) : at::minimum(acc, p);
    }
    return acc.defined() ? acc : partial(x);
}

Value Interpreter::matmul(const at::Tensor& a, const at::Tensor& b, DType outDType, const Args& args, const Expr& e)
{
    const bool aTrans = keyword(args, "a_trans") && truth(*keyword(args, "a_trans"), e.pos);
    const bool bTrans = keyword(args, "b_trans") && truth(*keyword(args, "b_trans"), e.pos);
    if (a.dim() < 2 || b.dim() < 2 || a.dim() != b.dim())
        throw SimError{e.pos, "pypto.matmul needs two matrices of the same rank (2, 3 or 4), got " + shapeText(a.sizes()) + " and " + shapeText(b.sizes()), "sim.shape"};
    const auto ma = aTrans ? a.transpose(-1, -2) : a;
    const auto mb = bTrans ? b.transpose(-1, -2) : b;
    if (ma.size(-1) != mb.size(-2))
        throw SimError{e.pos,
                       "pypto.matmul inner dimensions differ: input is " + shapeText(a.sizes()) + (aTrans ? " (transposed)" : "") + ", mat2 is " +
                           shapeText(b.sizes()) + (bTrans ? " (transposed)" : "") + " (k = " + std::to_string(ma.size(-1)) + " vs " + std::to_string(mb.size(-2)) + ")",
                       "sim.shape"};
    const at::Tensor r = at::matmul(ma.to(at::kFloat), mb.to(at::kFloat));
    if (m_cost) m_cost->cube(m_line, "pypto.matmul " + shapeText(ma.sizes()) + " x " + shapeText(mb.sizes()), ma.size(-2), mb.size(-1), ma.size(-1), m_result.cost);
    return tensorResult(r.to(torchscript::toTorch(outDType)), "matmul");
}

at::Tensor Interpreter::narrowed(const at::Tensor& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& offsets, Pos pos, const std::string& fn)
{
    if (shape.size() != std::size_t(x.dim()) || offsets.size() != std::size_t(x.dim()))
        throw SimError{pos, fn + ": shape " + shapefn::toString(shape) + " and offsets " + shapefn::toString(offsets) + " must both have the tensor's rank " +
                                std::to_string(x.dim()) + " (tensor " + shapeText(x.sizes()) + ")", "sim.shape"};
    at::Tensor v = x;
    for (std::int64_t d = 0; d < x.dim(); ++d) {
        const auto o = offsets[std::size_t(d)], n = shape[std::size_t(d)];
        if (o < 0 || n < 0 || o + n > x.size(d))
            throw SimError{pos, fn + ": a view of shape " + shapefn::toString(shape) + " at offsets " + shapefn::toString(offsets) + " does not fit in a tensor of shape " +
                                    shapeText(x.sizes()) + " (dim " + std::to_string(d) + ": " + std::to_string(o) + " + " + std::to_string(n) + " > " +
                                    std::to_string(x.size(d)) + ")", "sim.view"};
        v = v.narrow(d, o, n);
    }
    return v;
}

Value Interpreter::view(const at::Tensor& x, const Args& a, const Expr& e)
{
    const auto shape = a.given[1] ? ints(a.values[1], e.pos) : x.sizes().vec();
    const auto offsets = a.given[2] ? ints(a.values[2], e.pos) : std::vector<std::int64_t>(std::size_t(x.dim()), 0);
    at::Tensor v = narrowed(x, shape, offsets, e.pos, "pypto.view");
    if (m_cost) m_cost->memory(m_line, "load view " + shapeText(v.sizes()), v.numel() * std::int64_t(v.element_size()), m_result.cost);
    return Value::ofTensor(v);
}

at::Tensor Interpreter::index(const at::Tensor& t, const Expr& sub)
{
    at::Tensor v = t;
    std::int64_t dim = 0;
    const std::size_t count = sub.kids.size() - 1;
    std::size_t consumed = 0;
    for (std::size_t k = 1; k < sub.kids.size(); ++k)
        if (sub.kids[k]->kind != ExprKind::Ellipsis) ++consumed;
    if (std::int64_t(consumed) > t.dim())
        throw SimError{sub.pos, "too many indices (" + std::to_string(consumed) + ") for a tensor of shape " + shapeText(t.sizes()), "sim.view"};
    for (std::size_t k = 1; k <= count; ++k) {
        const ExprPtr& part = sub.kids[k];
        if (part->kind == ExprKind::Ellipsis) {
            dim += t.dim() - std::int64_t(consumed);
            continue;
        }
        const std::int64_t size = v.size(dim);
        if (part->kind == ExprKind::Slice) {
            auto bound = [&](const ExprPtr& b, std::int64_t fallback) {
                if (!b) return fallback;
                std::int64_t x = integer(eval(b), b->pos);
                if (x < 0) x += size;
                return std::clamp<std::int64_t>(x, 0, size);
            };
            const std::int64_t step = part->kids[2] ? integer(eval(part->kids[2]), part->kids[2]->pos) : 1;
            if (step <= 0) throw SimError{part->pos, "slice steps must be positive in a kernel", "sim.view"};
            const std::int64_t start = bound(part->kids[0], 0), stop = std::max(bound(part->kids[1], size), start);
            v = v.slice(dim, start, stop, step);
            ++dim;
        } else {
            std::int64_t i = integer(eval(part), part->pos);
            if (i < -size || i >= size)
                throw SimError{part->pos, "index " + std::to_string(i) + " is out of range for dim " + std::to_string(dim) + " of size " + std::to_string(size) +
                                              " (tensor " + shapeText(t.sizes()) + ")", "sim.view"};
            v = v.select(dim, i < 0 ? i + size : i);
        }
    }
    return v;
}

void Interpreter::checkDim(std::int64_t d, const at::Tensor& x, Pos pos, const std::string& fn)
{
    if (d < -x.dim() || d >= x.dim())
        throw SimError{pos, fn + ": dim " + std::to_string(d) + " is out of range for a tensor of shape " + shapeText(x.sizes()), "sim.shape"};
}

void Interpreter::checkBroadcast(const std::vector<std::vector<std::int64_t>>& shapes, Pos pos, const std::string& what)
{
    if (broadcastShapes(shapes)) return;
    std::string list;
    for (const auto& s : shapes) list += (list.empty() ? "" : " and ") + shapefn::toString(s);
    throw SimError{pos, what + " cannot broadcast shapes " + list, "sim.shape"};
}

at::Tensor Interpreter::tensor(const Value& v, const Expr& e, const std::string& fn)
{
    if (v.kind != Value::Kind::Tensor) throw SimError{e.pos, fn + " needs a tensor, got " + describe(v), "sim.type"};
    return v.tensor;
}

DType Interpreter::dtypeOf(const at::Tensor& t, Pos pos)
{
    if (auto d = torchscript::fromTorch(t.scalar_type())) return *d;
    throw SimError{pos, "unsupported tensor dtype"};
}

DType Interpreter::dtypeArg(const Value& v, Pos pos)
{
    if (v.kind != Value::Kind::DType) throw SimError{pos, "expected a dtype such as pypto.DT_FP32, got " + describe(v), "sim.type"};
    return v.dtype;
}

std::int64_t Interpreter::integer(const Value& v, Pos pos)
{
    if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return v.i;
    throw SimError{pos, "expected an int, got " + describe(v), "sim.type"};
}

double Interpreter::number(const Value& v, Pos pos)
{
    if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return double(v.i);
    if (v.kind == Value::Kind::Float) return v.f;
    throw SimError{pos, "expected a number, got " + describe(v), "sim.type"};
}

at::Scalar Interpreter::scalar(const Value& v, Pos pos)
{
    if (v.kind == Value::Kind::Int) return at::Scalar(v.i);
    if (v.kind == Value::Kind::Bool) return at::Scalar(bool(v.i));
    return at::Scalar(number(v, pos));
}

std::vector<std::int64_t> Interpreter::ints(const Value& v, Pos pos)
{
    if (v.kind != Value::Kind::Tuple) throw SimError{pos, "expected a list of ints, got " + describe(v), "sim.type"};
    std::vector<std::int64_t> out;
    for (const auto& item : v.items) out.push_back(integer(item, pos));
    return out;
}

bool Interpreter::truth(const Value& v, Pos pos)
{
    switch (v.kind) {
    case Value::Kind::None: return false;
    case Value::Kind::Bool:
    case Value::Kind::Int: return v.i != 0;
    case Value::Kind::Float: return v.f != 0;
    case Value::Kind::Str: return !v.s.empty();
    case Value::Kind::Tuple: return !v.items.empty();
    case Value::Kind::Tensor:
        throw SimError{pos, "the truth of a tensor depends on its data, which a kernel cannot branch on; use pypto.where", "kernel.unsupported"};
    default: return true;
    }
}

std::string Interpreter::describe(const Value& v)
{
    switch (v.kind) {
    case Value::Kind::None: return "None";
    case Value::Kind::Bool: return v.i ? "True" : "False";
    case Value::Kind::Int: return "the int " + std::to_string(v.i);
    case Value::Kind::Float: return "the float " + std::to_string(v.f);
    case Value::Kind::Str: return "a string";
    case Value::Kind::DType: return std::string(dtypeInfo(v.dtype).pypto);
    case Value::Kind::Tensor: return "a " + shapeText(v.tensor.sizes()) + " " + dtypeText(v.tensor) + " tensor";
    case Value::Kind::Tuple: return "a sequence of " + std::to_string(v.items.size());
    case Value::Kind::Module: return "the module " + v.s;
    case Value::Kind::Function: return "the function " + v.s;
    case Value::Kind::Method: return "the method " + v.s;
    }
    return "a value";
}

std::string Interpreter::exprText(const Expr& e)
{
    if (e.kind == ExprKind::Subscript && e.kids[0]->kind == ExprKind::Name) return e.kids[0]->text + "[...]";
    return "the target";
}

} // namespace ptowb::sim
