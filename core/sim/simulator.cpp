#include "sim/simulator.h"

#include "diag/suggest.h"
#include "kernel/kernel_parser.h"
#include "kernel/pypto_api.h"
#include "rules/shape_functions.h"
#include "torchscript/torchscript.h"

#include <cmath>
#include <sstream>

namespace ptowb::sim {

using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using kernel::Pos;
using kernel::Stmt;
using kernel::StmtKind;

Value Value::ofBool(bool v) { Value x; x.kind = Kind::Bool; x.i = v; return x; }
Value Value::ofInt(std::int64_t v) { Value x; x.kind = Kind::Int; x.i = v; return x; }
Value Value::ofFloat(double v) { Value x; x.kind = Kind::Float; x.f = v; return x; }
Value Value::ofStr(std::string v) { Value x; x.kind = Kind::Str; x.s = std::move(v); return x; }
Value Value::ofDType(DType v) { Value x; x.kind = Kind::DType; x.dtype = v; return x; }
Value Value::ofTensor(at::Tensor v) { Value x; x.kind = Kind::Tensor; x.tensor = std::move(v); return x; }
Value Value::ofTuple(std::vector<Value> v) { Value x; x.kind = Kind::Tuple; x.items = std::move(v); return x; }

namespace {

struct SimError
{
    Pos pos;
    std::string message;
    std::string code = "sim.error";
};

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

// Emulates an op of the device: computed in float32, rounded to the operand dtype once per op.
at::Tensor rounded(const at::Tensor& result, at::ScalarType dtype) { return result.scalar_type() == dtype ? result : result.to(dtype); }
at::Tensor widened(const at::Tensor& t) { return isLowPrecision(t) ? t.to(at::kFloat) : t; }

class Interpreter
{
public:
    Interpreter(const kernel::Module& module, const std::string& file, const RunOptions& options, RunResult& result)
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

    void run(const kernel::FunctionDef& f, const std::map<std::string, Value>& arguments)
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

private:
    // --- statements ---
    void block(const std::vector<Stmt>& body)
    {
        for (const Stmt& s : body) statement(s);
    }

    void statement(const Stmt& s)
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

    void assign(const ExprPtr& target, const Value& v)
    {
        switch (target->kind) {
        case ExprKind::Name:
            m_locals[target->text] = v;
            if (m_options.capture && v.kind == Value::Kind::Tensor) m_result.captures.push_back({target->pos.line, target->text, v.tensor.clone()});
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

    // Writes `v` into `view` (which shares storage with a kernel tensor), broadcasting as
    // the device does, in the view's dtype.
    void store(at::Tensor& view, const Value& v, Pos pos, const std::string& what)
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

    // --- expressions ---
    Value eval(const ExprPtr& e)
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

    Value attribute(const Value& base, const Expr& e)
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

    // --- calls ---
    struct Args
    {
        std::vector<Value> values;  // by position in the API's parameter list
        std::vector<bool> given;
        std::vector<Pos> positions;
        std::vector<std::pair<std::string, Value>> keywordOnly;
    };

    Value call(const Expr& e)
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

    Value builtin(const std::string& name, const std::vector<Value>& args, const Expr& e)
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

    Value loopRange(std::int64_t start, std::int64_t stop, std::int64_t step, Pos pos)
    {
        if (step == 0) throw SimError{pos, "a loop step cannot be zero"};
        std::vector<Value> items;
        for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
            if (items.size() > 10'000'000) throw SimError{pos, "the loop runs more than 10 million times"};
            items.push_back(Value::ofInt(i));
        }
        return Value::ofTuple(std::move(items));
    }

    Args bindArgs(const kernel::ApiFunction& api, std::vector<Value> positional, const Expr& e)
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

    static const Value* keyword(const Args& a, const char* name)
    {
        for (const auto& [k, v] : a.keywordOnly)
            if (k == name) return &v;
        return nullptr;
    }

    Value callApi(const std::string& name, std::vector<Value> positional, const Expr& e)
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

    // --- tensor semantics ---
    Value tensorResult(at::Tensor t, const std::string&) { return Value::ofTensor(std::move(t)); }

    // A vec tile must have the rank of the tensors it tiles, and the buffers one vector op
    // keeps live (its operands and result, one tile each) must fit in the unified buffer.
    void checkTile(const at::Tensor& result, int liveBuffers, const std::string& fn, Pos pos)
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

    void vectorCost(const std::string& what, const at::Tensor& t, int passes = 1)
    {
        if (m_cost) m_cost->vector(m_line, what + " " + shapeText(t.sizes()) + " " + dtypeText(t), t.numel() * passes, int(t.element_size()), m_result.cost);
    }

    Value unary(const std::string& name, const at::Tensor& x, const Expr& e)
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

    Value binary(const std::string& op, const Value& a, const Value& b, Pos pos)
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

    Value binaryScalar(const std::string& op, const Value& a, const Value& b, Pos pos)
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

    Value compareTensors(const std::string& op, const Value& a, const Value& b, Pos pos)
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

    bool compareScalars(const std::string& op, const Value& a, const Value& b, Pos pos)
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

    // Reductions run in vec-tile order: each tile's partial result is rounded to the operand
    // dtype, then the partials are combined one by one in that dtype, as the vector unit does.
    Value reduce(const std::string& name, const at::Tensor& x, const Value& dimArg, bool keepdim, const Expr& e)
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

    at::Tensor reduceDim(const std::string& name, const at::Tensor& x, std::int64_t dim)
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

    // fp32 accumulation, then the result cast to out_dtype.
    Value matmul(const at::Tensor& a, const at::Tensor& b, DType outDType, const Args& args, const Expr& e)
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

    at::Tensor narrowed(const at::Tensor& x, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& offsets, Pos pos, const std::string& fn)
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

    Value view(const at::Tensor& x, const Args& a, const Expr& e)
    {
        const auto shape = a.given[1] ? ints(a.values[1], e.pos) : x.sizes().vec();
        const auto offsets = a.given[2] ? ints(a.values[2], e.pos) : std::vector<std::int64_t>(std::size_t(x.dim()), 0);
        at::Tensor v = narrowed(x, shape, offsets, e.pos, "pypto.view");
        if (m_cost) m_cost->memory(m_line, "load view " + shapeText(v.sizes()), v.numel() * std::int64_t(v.element_size()), m_result.cost);
        return Value::ofTensor(v);
    }

    // t[i, a:b, ..., ::s] as a view of t.
    at::Tensor index(const at::Tensor& t, const Expr& sub)
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

    // --- conversions ---
    void checkDim(std::int64_t d, const at::Tensor& x, Pos pos, const std::string& fn)
    {
        if (d < -x.dim() || d >= x.dim())
            throw SimError{pos, fn + ": dim " + std::to_string(d) + " is out of range for a tensor of shape " + shapeText(x.sizes()), "sim.shape"};
    }

    void checkBroadcast(const std::vector<std::vector<std::int64_t>>& shapes, Pos pos, const std::string& what)
    {
        if (broadcastShapes(shapes)) return;
        std::string list;
        for (const auto& s : shapes) list += (list.empty() ? "" : " and ") + shapefn::toString(s);
        throw SimError{pos, what + " cannot broadcast shapes " + list, "sim.shape"};
    }

    at::Tensor tensor(const Value& v, const Expr& e, const std::string& fn)
    {
        if (v.kind != Value::Kind::Tensor) throw SimError{e.pos, fn + " needs a tensor, got " + describe(v), "sim.type"};
        return v.tensor;
    }

    DType dtypeOf(const at::Tensor& t, Pos pos)
    {
        if (auto d = torchscript::fromTorch(t.scalar_type())) return *d;
        throw SimError{pos, "unsupported tensor dtype"};
    }

    DType dtypeArg(const Value& v, Pos pos)
    {
        if (v.kind != Value::Kind::DType) throw SimError{pos, "expected a dtype such as pypto.DT_FP32, got " + describe(v), "sim.type"};
        return v.dtype;
    }

    std::int64_t integer(const Value& v, Pos pos)
    {
        if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return v.i;
        throw SimError{pos, "expected an int, got " + describe(v), "sim.type"};
    }

    double number(const Value& v, Pos pos)
    {
        if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return double(v.i);
        if (v.kind == Value::Kind::Float) return v.f;
        throw SimError{pos, "expected a number, got " + describe(v), "sim.type"};
    }

    at::Scalar scalar(const Value& v, Pos pos)
    {
        if (v.kind == Value::Kind::Int) return at::Scalar(v.i);
        if (v.kind == Value::Kind::Bool) return at::Scalar(bool(v.i));
        return at::Scalar(number(v, pos));
    }

    std::vector<std::int64_t> ints(const Value& v, Pos pos)
    {
        if (v.kind != Value::Kind::Tuple) throw SimError{pos, "expected a list of ints, got " + describe(v), "sim.type"};
        std::vector<std::int64_t> out;
        for (const auto& item : v.items) out.push_back(integer(item, pos));
        return out;
    }

    bool truth(const Value& v, Pos pos)
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

    static std::string describe(const Value& v)
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

    static std::string exprText(const Expr& e)
    {
        if (e.kind == ExprKind::Subscript && e.kids[0]->kind == ExprKind::Name) return e.kids[0]->text + "[...]";
        return "the target";
    }

    const std::string& m_file;
    const RunOptions& m_options;
    RunResult& m_result;
    std::map<std::string, Value> m_globals;
    std::map<std::string, Value> m_locals;
    std::vector<std::int64_t> m_vecTile;
    Pos m_vecTilePos;
    int m_line = 0;
    std::optional<CostModel> m_cost;
};

} // namespace

void simulateOnTensors(const std::string& kernelSource, const std::string& file, const std::string& function,
                       const std::map<std::string, Value>& arguments)
{
    Diagnostics diagnostics;
    const kernel::Module module = kernel::parseKernel(kernelSource, file, diagnostics);
    const kernel::FunctionDef* entry = nullptr;
    for (const auto& f : module.functions)
        if (f.name == function) entry = &f;
    if (!hasErrors(diagnostics) && entry) diagnostics = runKernel(module, *entry, arguments, file, {}).diagnostics;
    else if (!entry && !hasErrors(diagnostics)) throw std::runtime_error(file + " defines no function '" + function + "'");
    std::string message;
    for (const Diagnostic& d : diagnostics)
        if (d.isError()) message += (message.empty() ? "" : "\n") + formatDiagnostic(d);
    if (!message.empty()) throw std::runtime_error(message);
}

RunResult runKernel(const kernel::Module& module, const kernel::FunctionDef& function, const std::map<std::string, Value>& arguments,
                    const std::string& file, const RunOptions& options)
{
    RunResult result;
    try {
        c10::InferenceMode guard;
        Interpreter(module, file, options, result).run(function, arguments);
    } catch (const SimError& e) {
        result.diagnostics.push_back(kernel::diagnosticAt(file, e.pos, e.code, e.message));
    } catch (const std::exception& e) {
        result.diagnostics.push_back(kernel::diagnosticAt(file, {function.pos.line, 1}, "sim.internal", std::string("the simulator failed: ") + e.what()));
    }
    return result;
}

} // namespace ptowb::sim
