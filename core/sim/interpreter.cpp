#include "sim/interpreter.h"

#include "diag/suggest.h"
#include "torchscript/torchscript.h"

#include <cmath>
#include <sstream>

namespace ptowb::sim {

std::string shapeText(at::IntArrayRef sizes) { return shapefn::toString(sizes.vec()); }

std::optional<shapefn::Shape> broadcastShapes(const std::vector<shapefn::Shape>& shapes)
{
    auto r = shapefn::broadcast(shapes);
    if (auto* s = std::get_if<shapefn::Shape>(&r)) return *s;
    return std::nullopt;
}

std::string dtypeText(const at::Tensor& t)
{
    const auto d = torchscript::fromTorch(t.scalar_type());
    return d ? std::string(dtypeName(*d)) : std::string(c10::toString(t.scalar_type()));
}

bool isLowPrecision(const at::Tensor& t) { return t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16; }

at::Tensor rounded(const at::Tensor& result, at::ScalarType dtype) { return result.scalar_type() == dtype ? result : result.to(dtype); }
at::Tensor widened(const at::Tensor& t) { return isLowPrecision(t) ? t.to(at::kFloat) : t; }

Interpreter::Interpreter(const kernel::Module& module, const std::string& file, const RunOptions& options, RunResult& result)
    : m_file(file), m_options(options), m_result(result)
{
    for (const auto& [alias, path] : module.imports) {
        if (path == "pypto") {
            Value v;
            v.kind = Value::Kind::Module;
            v.s = "pypto";
            m_globals[alias] = v;
        } else if (path.rfind("pypto.", 0) == 0) {
            Value v;
            v.kind = Value::Kind::Function;
            v.s = path.substr(6);
            m_globals[alias] = v;
        }
    }
    if (options.platform) m_cost.emplace(*options.platform);
}

void Interpreter::run(const kernel::FunctionDef& f, const std::map<std::string, Value>& arguments)
{
    m_locals = arguments;
    for (const auto& p : f.params) {
        if (m_locals.count(p.name)) continue;
        if (!p.defaultValue) throw SimError{p.pos, "no value for kernel parameter '" + p.name + "'"};
        m_locals[p.name] = eval(p.defaultValue);
    }
    block(f.body);
    if (m_cost) m_result.cost.platform = m_options.platform->name;
}

void Interpreter::block(const std::vector<Stmt>& body)
{
    for (const Stmt& s : body) statement(s);
}

void Interpreter::statement(const Stmt& s)
{
    m_line = s.pos.line;
    switch (s.kind) {
    case StmtKind::Pass: return;
    case StmtKind::Return: return; // the checker reports a returned value
    case StmtKind::Unsupported: throw SimError{s.pos, "not supported by the simulator: " + s.op, "kernel.unsupported"};
    case StmtKind::ExprStmt: eval(s.value); return;
    case StmtKind::Assign: {
        const Value v = eval(s.value);
        for (const auto& t : s.targets) assign(t, v);
        return;
    }
    case StmtKind::AugAssign: {
        const Value v = binary(s.op, eval(s.targets[0]), eval(s.value), s.pos);
        assign(s.targets[0], v);
        return;
    }
    case StmtKind::If: {
        if (truth(eval(s.value), s.value->pos)) block(s.body);
        else block(s.orelse);
        return;
    }
    case StmtKind::For: {
        const Value range = eval(s.value);
        if (range.kind != Value::Kind::Tuple) throw SimError{s.value->pos, "a loop needs pypto.loop(...) or range(...)"};
        for (const Value& index : range.items) {
            assign(s.targets[0], index);
            block(s.body);
        }
        return;
    }
    }
}

// A loop assigns the same line many times: only the last value is kept, so memory stays at
// one tensor per assignment site.
void Interpreter::capture(int line, const std::string& name, const at::Tensor& value)
{
    for (Capture& c : m_result.captures)
        if (c.line == line && c.name == name) {
            c.value = value.clone();
            return;
        }
    m_result.captures.push_back({line, name, value.clone()});
}

void Interpreter::assign(const ExprPtr& target, const Value& v)
{
    switch (target->kind) {
    case ExprKind::Name:
        m_locals[target->text] = v;
        if (m_options.capture && v.kind == Value::Kind::Tensor) capture(target->pos.line, target->text, v.tensor);
        return;
    case ExprKind::Tuple:
    case ExprKind::List: {
        if (v.kind != Value::Kind::Tuple || v.items.size() != target->kids.size())
            throw SimError{target->pos, "cannot unpack " + describe(v) + " into " + std::to_string(target->kids.size()) + " names"};
        for (std::size_t k = 0; k < v.items.size(); ++k) assign(target->kids[k], v.items[k]);
        return;
    }
    case ExprKind::Subscript: {
        const Value base = eval(target->kids[0]);
        if (base.kind != Value::Kind::Tensor) throw SimError{target->pos, "only tensors can be assigned by index, not " + describe(base)};
        at::Tensor view = index(base.tensor, *target);
        store(view, v, target->pos, exprText(*target));
        return;
    }
    default: throw SimError{target->pos, "cannot assign to this expression"};
    }
}

void Interpreter::store(at::Tensor& view, const Value& v, Pos pos, const std::string& what)
{
    if (v.kind == Value::Kind::Tensor) {
        const auto shape = broadcastShapes({view.sizes().vec(), v.tensor.sizes().vec()});
        if (!shape || *shape != view.sizes().vec())
            throw SimError{pos, "cannot write a " + shapeText(v.tensor.sizes()) + " tensor into " + what + " of shape " + shapeText(view.sizes()), "sim.shape"};
        view.copy_(v.tensor);
        if (m_cost) m_cost->memory(m_line, "store " + what, view.numel() * std::int64_t(view.element_size()), m_result.cost);
    } else {
        view.fill_(scalar(v, pos));
    }
}

Value Interpreter::eval(const ExprPtr& e)
{
    switch (e->kind) {
    case ExprKind::Int: return Value::ofInt(e->intValue);
    case ExprKind::Float: return Value::ofFloat(e->floatValue);
    case ExprKind::Str: return Value::ofStr(e->text);
    case ExprKind::True: return Value::ofBool(true);
    case ExprKind::False: return Value::ofBool(false);
    case ExprKind::None: return Value::none();
    case ExprKind::Name: {
        if (auto it = m_locals.find(e->text); it != m_locals.end()) return it->second;
        if (auto it = m_globals.find(e->text); it != m_globals.end()) return it->second;
        static const std::vector<std::string> kBuiltins{"range", "len", "min", "max", "int", "float", "abs", "bool"};
        if (std::find(kBuiltins.begin(), kBuiltins.end(), e->text) != kBuiltins.end()) {
            Value v;
            v.kind = Value::Kind::Function;
            v.s = "builtin." + e->text;
            return v;
        }
        std::vector<std::string> known;
        for (const auto& [name, value] : m_locals) known.push_back(name);
        throw SimError{e->pos, "name '" + e->text + "' is not defined" + didYouMean(e->text, known), "sim.name"};
    }
    case ExprKind::Tuple:
    case ExprKind::List: {
        std::vector<Value> items;
        for (const auto& k : e->kids) items.push_back(eval(k));
        return Value::ofTuple(std::move(items));
    }
    case ExprKind::Attribute: return attribute(eval(e->kids[0]), *e);
    case ExprKind::Subscript: {
        const Value base = eval(e->kids[0]);
        if (base.kind == Value::Kind::Tensor) return Value::ofTensor(index(base.tensor, *e));
        if (base.kind == Value::Kind::Tuple && e->kids.size() == 2) {
            const Value i = eval(e->kids[1]);
            if (i.kind != Value::Kind::Int) throw SimError{e->kids[1]->pos, "a tuple index must be an int"};
            const auto n = std::int64_t(base.items.size());
            if (i.i < -n || i.i >= n) throw SimError{e->kids[1]->pos, "index " + std::to_string(i.i) + " is out of range for " + describe(base)};
            return base.items[std::size_t(i.i < 0 ? i.i + n : i.i)];
        }
        // `pypto.Tensor[...]` and friends only appear in annotations.
        throw SimError{e->pos, "cannot index " + describe(base)};
    }
    case ExprKind::Call: return call(*e);
    case ExprKind::BinOp: return binary(e->text, eval(e->kids[0]), eval(e->kids[1]), e->pos);
    case ExprKind::UnaryOp: {
        const Value v = eval(e->kids[0]);
        if (e->text == "not") return Value::ofBool(!truth(v, e->pos));
        if (e->text == "+") return v;
        if (e->text == "-") {
            if (v.kind == Value::Kind::Int) return Value::ofInt(-v.i);
            if (v.kind == Value::Kind::Float) return Value::ofFloat(-v.f);
            if (v.kind == Value::Kind::Tensor) return tensorResult(rounded(-widened(v.tensor), v.tensor.scalar_type()), "neg");
        }
        throw SimError{e->pos, "unary " + e->text + " is not supported on " + describe(v), "kernel.unsupported"};
    }
    case ExprKind::Compare: {
        Value left = eval(e->kids[0]);
        for (std::size_t k = 0; k < e->ops.size(); ++k) {
            const Value right = eval(e->kids[k + 1]);
            if (left.kind == Value::Kind::Tensor || right.kind == Value::Kind::Tensor) {
                if (e->ops.size() > 1) throw SimError{e->pos, "chained comparisons of tensors are not supported", "kernel.unsupported"};
                return compareTensors(e->ops[k], left, right, e->pos);
            }
            if (!compareScalars(e->ops[k], left, right, e->pos)) return Value::ofBool(false);
            left = right;
        }
        return Value::ofBool(true);
    }
    case ExprKind::BoolOp: {
        const Value left = eval(e->kids[0]);
        const bool t = truth(left, e->pos);
        if ((e->text == "and" && !t) || (e->text == "or" && t)) return left;
        return eval(e->kids[1]);
    }
    case ExprKind::IfExp: return truth(eval(e->kids[1]), e->kids[1]->pos) ? eval(e->kids[0]) : eval(e->kids[2]);
    case ExprKind::Ellipsis:
    case ExprKind::Slice:
    case ExprKind::Dict: break;
    }
    throw SimError{e->pos, "not supported by the simulator: this expression", "kernel.unsupported"};
}

Value Interpreter::attribute(const Value& base, const Expr& e)
{
    if (base.kind == Value::Kind::Module) {
        if (auto d = dtypeFromPypto(e.text)) return Value::ofDType(*d);
        if (e.text == "DYNAMIC") return Value::ofInt(-1);
        if (kernel::findApi(e.text)) {
            Value v;
            v.kind = Value::Kind::Function;
            v.s = e.text;
            return v;
        }
        throw SimError{Pos{e.end.line, e.end.col - int(e.text.size())}, "pypto." + e.text + " is not supported by the simulator" + didYouMean(e.text, kernel::apiNames()),
                       "kernel.unknown-function"};
    }
    if (base.kind == Value::Kind::Tensor) {
        if (e.text == "shape") {
            std::vector<Value> dims;
            for (auto d : base.tensor.sizes()) dims.push_back(Value::ofInt(d));
            return Value::ofTuple(std::move(dims));
        }
        if (e.text == "dtype") return Value::ofDType(dtypeOf(base.tensor, e.pos));
        if (e.text == "dim" || e.text == "move" || e.text == "view" || e.text == "reshape" || e.text == "sum" || e.text == "amax" ||
            e.text == "amin" || e.text == "exp" || e.text == "abs" || e.text == "cast" || e.text == "transpose") {
            Value m;
            m.kind = Value::Kind::Method;
            m.s = e.text;
            m.tensor = base.tensor;
            return m;
        }
    }
    throw SimError{e.pos, describe(base) + " has no attribute '" + e.text + "' the simulator knows", "kernel.unsupported"};
}

Value Interpreter::call(const Expr& e)
{
    const Value f = eval(e.kids[0]);
    std::vector<Value> positional;
    for (std::size_t k = 1; k < e.kids.size(); ++k) positional.push_back(eval(e.kids[k]));
    if (f.kind == Value::Kind::Method) {
        Value self = Value::ofTensor(f.tensor);
        if (f.s == "move") {
            if (positional.size() != 1) throw SimError{e.pos, "move takes one tensor"};
            at::Tensor target = f.tensor;
            store(target, positional[0], e.pos, "the tensor");
            return Value::none();
        }
        if (f.s == "dim") return Value::ofInt(f.tensor.dim());
        positional.insert(positional.begin(), self);
        Value method;
        method.kind = Value::Kind::Function;
        method.s = f.s == "view" ? "view" : f.s;
        return callApi(method.s, positional, e);
    }
    if (f.kind != Value::Kind::Function) throw SimError{e.pos, describe(f) + " is not callable", "kernel.unsupported"};
    if (f.s.rfind("builtin.", 0) == 0) return builtin(f.s.substr(8), positional, e);
    return callApi(f.s, positional, e);
}

Value Interpreter::builtin(const std::string& name, const std::vector<Value>& args, const Expr& e)
{
    if (name == "range") {
        std::int64_t start = 0, stop = 0, step = 1;
        if (args.size() == 1) stop = integer(args[0], e.pos);
        else if (args.size() >= 2) {
            start = integer(args[0], e.pos);
            stop = integer(args[1], e.pos);
            if (args.size() == 3) step = integer(args[2], e.pos);
        }
        return loopRange(start, stop, step, e.pos);
    }
    if (name == "len") {
        if (args.size() == 1 && args[0].kind == Value::Kind::Tuple) return Value::ofInt(std::int64_t(args[0].items.size()));
        if (args.size() == 1 && args[0].kind == Value::Kind::Tensor) return Value::ofInt(args[0].tensor.size(0));
    }
    if ((name == "min" || name == "max") && !args.empty()) {
        const std::vector<Value> items = args.size() == 1 && args[0].kind == Value::Kind::Tuple ? args[0].items : args;
        Value best = items.at(0);
        for (const auto& v : items)
            if (compareScalars(name == "min" ? "<" : ">", v, best, e.pos)) best = v;
        return best;
    }
    if (name == "int" && args.size() == 1) return Value::ofInt(std::int64_t(number(args[0], e.pos)));
    if (name == "float" && args.size() == 1) return Value::ofFloat(number(args[0], e.pos));
    if (name == "bool" && args.size() == 1) return Value::ofBool(truth(args[0], e.pos));
    if (name == "abs" && args.size() == 1) return args[0].kind == Value::Kind::Int ? Value::ofInt(std::llabs(args[0].i)) : Value::ofFloat(std::fabs(number(args[0], e.pos)));
    throw SimError{e.pos, "wrong arguments for " + name + "()"};
}

Value Interpreter::loopRange(std::int64_t start, std::int64_t stop, std::int64_t step, Pos pos)
{
    if (step == 0) throw SimError{pos, "a loop step cannot be zero"};
    std::vector<Value> items;
    for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (items.size() > 10'000'000) throw SimError{pos, "the loop runs more than 10 million times"};
        items.push_back(Value::ofInt(i));
    }
    return Value::ofTuple(std::move(items));
}

Interpreter::Args Interpreter::bindArgs(const kernel::ApiFunction& api, std::vector<Value> positional, const Expr& e)
{
    Args a;
    const std::size_t n = api.variadic ? positional.size() : api.params.size();
    a.values.resize(n);
    a.given.resize(n, false);
    if (!api.variadic && positional.size() > n)
        throw SimError{e.pos, "pypto." + std::string(api.name) + " takes at most " + std::to_string(n) + " positional arguments", "kernel.arguments"};
    for (std::size_t k = 0; k < positional.size(); ++k) {
        a.values[k] = positional[k];
        a.given[k] = true;
    }
    for (const auto& kw : e.keywords) {
        const auto it = std::find(api.params.begin(), api.params.end(), kw.name);
        if (it != api.params.end()) {
            const std::size_t k = std::size_t(it - api.params.begin());
            a.values[k] = eval(kw.value);
            a.given[k] = true;
        } else {
            a.keywordOnly.push_back({kw.name, eval(kw.value)});
        }
    }
    for (int k = 0; k < api.required; ++k)
        if (!a.given[std::size_t(k)]) throw SimError{e.pos, "pypto." + std::string(api.name) + " needs argument '" + std::string(api.params[std::size_t(k)]) + "'", "kernel.arguments"};
    return a;
}

const Value* Interpreter::keyword(const Args& a, const char* name)
{
    for (const auto& [k, v] : a.keywordOnly)
        if (k == name) return &v;
    return nullptr;
}

Value Interpreter::callApi(const std::string& name, std::vector<Value> positional, const Expr& e)
{
    const kernel::ApiFunction* api = kernel::findApi(name);
    if (!api) throw SimError{e.pos, "unknown pypto function '" + name + "'" + didYouMean(name, kernel::apiNames()), "kernel.unknown-function"};
    const Args a = bindArgs(*api, std::move(positional), e);
    const auto& v = a.values;
    const std::string fn = "pypto." + name;
    switch (api->kind) {
    case kernel::ApiKind::Unary: return unary(name, tensor(v[0], e, fn), e);
    case kernel::ApiKind::Binary: {
        Value other = v[1];
        if (const Value* alpha = keyword(a, "alpha"); alpha && number(*alpha, e.pos) != 1.0)
            other = binary("*", other, *alpha, e.pos);
        static const std::map<std::string, std::string> kOps{{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"div", "/"}, {"pow", "**"}, {"maximum", "max"}, {"minimum", "min"}};
        return binary(kOps.at(name), v[0], other, e.pos);
    }
    case kernel::ApiKind::Compare: {
        static const std::map<std::string, std::string> kOps{{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}};
        return compareTensors(kOps.at(name), v[0], v[1], e.pos);
    }
    case kernel::ApiKind::Reduction: return reduce(name, tensor(v[0], e, fn), a.given[1] ? v[1] : Value::none(), a.given[2] && truth(v[2], e.pos), e);
    case kernel::ApiKind::Softmax: {
        const at::Tensor x = tensor(v[0], e, fn);
        const std::int64_t dim = a.given[1] ? integer(v[1], e.pos) : -1;
        checkDim(dim, x, e.pos, fn);
        vectorCost(fn, x, 4);
        return tensorResult(rounded(at::softmax(widened(x), dim), x.scalar_type()), name);
    }
    case kernel::ApiKind::Matmul: return matmul(tensor(v[0], e, fn), tensor(v[1], e, fn), dtypeArg(v[2], e.pos), a, e);
    case kernel::ApiKind::Cast: return tensorResult(tensor(v[0], e, fn).to(torchscript::toTorch(dtypeArg(v[1], e.pos))), name);
    case kernel::ApiKind::View: return view(tensor(v[0], e, fn), a, e);
    case kernel::ApiKind::Reshape: {
        const at::Tensor x = tensor(v[0], e, fn);
        const auto shape = ints(v[1], e.pos);
        std::int64_t known = 1, unknown = 0;
        for (auto d : shape) {
            if (d == -1) ++unknown;
            else known *= d;
        }
        if (unknown > 1 || (unknown == 0 && known != x.numel()) || (unknown == 1 && (known == 0 || x.numel() % known != 0)))
            throw SimError{e.pos, "pypto.reshape cannot make a " + shapeText(x.sizes()) + " tensor (" + std::to_string(x.numel()) + " elements) into shape " + shapefn::toString(shape), "sim.shape"};
        return Value::ofTensor(x.reshape(shape));
    }
    case kernel::ApiKind::Transpose: {
        const at::Tensor x = tensor(v[0], e, fn);
        const auto d0 = integer(v[1], e.pos), d1 = integer(v[2], e.pos);
        checkDim(d0, x, e.pos, fn);
        checkDim(d1, x, e.pos, fn);
        return Value::ofTensor(x.transpose(d0, d1));
    }
    case kernel::ApiKind::Unsqueeze: {
        const at::Tensor x = tensor(v[0], e, fn);
        const auto d = integer(v[1], e.pos);
        if (d < -x.dim() - 1 || d > x.dim()) throw SimError{e.pos, fn + ": dim " + std::to_string(d) + " is out of range for a rank-" + std::to_string(x.dim()) + " tensor", "sim.shape"};
        return Value::ofTensor(x.unsqueeze(d));
    }
    case kernel::ApiKind::Full: {
        const auto shape = ints(v[0], e.pos);
        const DType d = dtypeArg(v[2], e.pos);
        return tensorResult(at::full(shape, scalar(v[1], e.pos), at::TensorOptions().dtype(torchscript::toTorch(d))), name);
    }
    case kernel::ApiKind::Assemble: {
        const at::Tensor t = tensor(v[0], e, fn);
        at::Tensor out = tensor(v[2], e, fn);
        const auto offsets = ints(v[1], e.pos);
        at::Tensor region = narrowed(out, t.sizes().vec(), offsets, e.pos, fn);
        store(region, Value::ofTensor(t), e.pos, "the assembled region");
        return Value::none();
    }
    case kernel::ApiKind::Concat: {
        if (v[0].kind != Value::Kind::Tuple) throw SimError{e.pos, fn + " takes a list of tensors"};
        std::vector<at::Tensor> parts;
        for (const auto& item : v[0].items) parts.push_back(tensor(item, e, fn));
        const std::int64_t dim = a.given[1] ? integer(v[1], e.pos) : 0;
        try {
            return tensorResult(at::cat(parts, dim), name);
        } catch (const c10::Error&) {
            std::string shapes;
            for (const auto& p : parts) shapes += (shapes.empty() ? "" : ", ") + shapeText(p.sizes());
            throw SimError{e.pos, fn + " cannot join tensors of shapes " + shapes + " along dim " + std::to_string(dim), "sim.shape"};
        }
    }
    case kernel::ApiKind::Clip: {
        const at::Tensor x = tensor(v[0], e, fn);
        at::Tensor r = widened(x);
        if (a.given[1] && v[1].kind != Value::Kind::None) r = v[1].kind == Value::Kind::Tensor ? at::maximum(r, widened(v[1].tensor)) : r.clamp_min(scalar(v[1], e.pos));
        if (a.given[2] && v[2].kind != Value::Kind::None) r = v[2].kind == Value::Kind::Tensor ? at::minimum(r, widened(v[2].tensor)) : r.clamp_max(scalar(v[2], e.pos));
        vectorCost(fn, x, 2);
        return tensorResult(rounded(r, x.scalar_type()), name);
    }
    case kernel::ApiKind::Where: {
        const at::Tensor cond = tensor(v[0], e, fn);
        const Value& x = v[1];
        const Value& y = v[2];
        const at::ScalarType type = x.kind == Value::Kind::Tensor ? x.tensor.scalar_type() : y.kind == Value::Kind::Tensor ? y.tensor.scalar_type() : at::kFloat;
        const at::Tensor xt = x.kind == Value::Kind::Tensor ? x.tensor : at::full({}, scalar(x, e.pos), at::TensorOptions().dtype(type));
        const at::Tensor yt = y.kind == Value::Kind::Tensor ? y.tensor : at::full({}, scalar(y, e.pos), at::TensorOptions().dtype(type));
        checkBroadcast({cond.sizes().vec(), xt.sizes().vec(), yt.sizes().vec()}, e.pos, fn);
        return tensorResult(at::where(cond.to(at::kBool), xt, yt.to(xt.scalar_type())), name);
    }
    case kernel::ApiKind::TileShapes: {
        if (name == "set_vec_tile_shapes") {
            m_vecTile.clear();
            for (const auto& d : v) m_vecTile.push_back(integer(d, e.pos));
            m_vecTilePos = e.pos;
        }
        return Value::none();
    }
    case kernel::ApiKind::Loop: {
        std::int64_t start = 0, stop = integer(v[0], e.pos), step = 1;
        if (a.given[1]) {
            start = stop;
            stop = integer(v[1], e.pos);
        }
        if (a.given[2]) step = integer(v[2], e.pos);
        return loopRange(start, stop, step, e.pos);
    }
    case kernel::ApiKind::LoopMarker: return Value::ofBool(false);
    }
    throw SimError{e.pos, fn + " is not supported by the simulator", "kernel.unsupported"};
}

} // namespace ptowb::sim
