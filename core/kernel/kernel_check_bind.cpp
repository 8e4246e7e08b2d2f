// Kernel parameters against the op: binding by name, and what their annotations say.
#include "diag/suggest.h"
#include "kernel/kernel_check_impl.h"
#include "spec/dtype_combinations.h"

#include <algorithm>

namespace ptowb::kernel {

namespace {

bool isOneOf(const std::string& word, std::initializer_list<const char*> words)
{
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

// "int", "List[int]": an annotation as the parameter types of op.json are written.
std::string writtenType(const ExprPtr& a)
{
    if (a->kind == ExprKind::Name) return a->text;
    if (a->kind != ExprKind::Subscript || a->kids[0]->kind != ExprKind::Name) return {};
    std::string written = a->kids[0]->text;
    if (a->kids.size() > 1 && a->kids[1]->kind == ExprKind::Name)
        written += "[" + a->kids[1]->text + "]";
    return written;
}

} // namespace

// Module-level `NAME = value` (also under `if` and `try`), for annotations that name an
// annotation object defined once: `X_SPEC = pypto.Tensor([...], DT)`, then `x: X_SPEC`.
void Checker::collectValues(const std::vector<Stmt>& statements)
{
    for (const Stmt& s : statements) {
        if (s.kind == StmtKind::Assign)
            for (const auto& t : s.targets)
                if (t->kind == ExprKind::Name) m_values[t->text] = s.value;
        if (s.kind == StmtKind::Def || s.kind == StmtKind::Class) continue;
        collectValues(s.body);
        collectValues(s.orelse);
        for (const Stmt& h : s.handlers)
            collectValues(h.body);
    }
}

// pypto.Tensor, pypto.tensor (the same class), pypto.tensor.TensorAnnotation, or a name
// imported as one of them.
bool Checker::isTensorClass(const ExprPtr& e) const
{
    if (e->kind == ExprKind::Attribute) {
        if (isPypto(e->kids[0])) return isOneOf(e->text, {"Tensor", "tensor", "TensorAnnotation"});
        const ExprPtr& owner = e->kids[0];
        return e->text == "TensorAnnotation" && owner->kind == ExprKind::Attribute &&
               owner->text == "tensor" && isPypto(owner->kids[0]);
    }
    if (e->kind != ExprKind::Name) return false;
    for (const auto& [alias, path] : m_imports)
        if (alias == e->text &&
            isOneOf(path, {"pypto.Tensor", "pypto.tensor", "pypto.TensorAnnotation",
                           "pypto.tensor.Tensor", "pypto.tensor.TensorAnnotation"}))
            return true;
    return false;
}

Annotation Checker::annotation(const ExprPtr& a, int depth) const
{
    Annotation r;
    if (!a) return r;
    const ExprPtr& base =
        a->kind == ExprKind::Subscript || a->kind == ExprKind::Call ? a->kids[0] : a;
    if (isTensorClass(base)) {
        r.kind = Annotation::Kind::Tensor;
        // Tensor[shape, dtype] takes its parts by type, Tensor(shape, dtype, ...) by position.
        for (std::size_t k = 1; k < a->kids.size(); ++k) {
            const ExprPtr& part = a->kids[k];
            const bool dims = part->kind == ExprKind::List || part->kind == ExprKind::Tuple;
            if (a->kind == ExprKind::Subscript ? dims : k == 1 && dims) r.shape = part;
            if (a->kind == ExprKind::Subscript ? bool(dtypeConstant(part)) : k == 2) r.dtype = part;
        }
        for (const Keyword& k : a->keywords) {
            if (k.name == "shape" &&
                (k.value->kind == ExprKind::List || k.value->kind == ExprKind::Tuple))
                r.shape = k.value;
            if (k.name == "dtype") r.dtype = k.value;
        }
        return r;
    }
    if (a->kind == ExprKind::Name) {
        if (isOneOf(a->text, {"int", "float", "bool", "str", "bytes", "complex", "list", "dict",
                              "tuple", "set"}))
            r.kind = Annotation::Kind::NotTensor;
        else if (const auto it = m_values.find(a->text); it != m_values.end() && depth < 8)
            return annotation(it->second, depth + 1);
        return r;
    }
    if (a->kind == ExprKind::Subscript && a->kids[0]->kind == ExprKind::Name &&
        isOneOf(a->kids[0]->text, {"List", "list", "Dict", "dict", "Tuple", "tuple", "Set", "set"}))
        r.kind = Annotation::Kind::NotTensor;
    return r;
}

KernelBinding bindingOf(const OpSpec& spec, const std::string& name)
{
    KernelBinding b;
    if (int k = spec.inputIndex(name); k >= 0) b = {KernelBinding::Role::Input, k};
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        if (spec.outputs[k].name == name) b = {KernelBinding::Role::Output, int(k)};
    if (int k = spec.paramIndex(name); k >= 0) b = {KernelBinding::Role::Param, k};
    for (std::size_t k = 0; k < spec.kernelArguments.size(); ++k)
        if (spec.kernelArguments[k].name == name) b = {KernelBinding::Role::Argument, int(k)};
    return b;
}

void Checker::bind(const FunctionDef& f, CheckedKernel& out)
{
    std::vector<std::string> names;
    for (const auto& in : m_spec.inputs)
        names.push_back(in.name);
    for (const auto& o : m_spec.outputs)
        names.push_back(o.name);
    for (const auto& p : m_spec.params)
        names.push_back(p.name);
    for (const auto& a : m_spec.kernelArguments)
        names.push_back(a.name);
    std::vector<bool> seenInput(m_spec.inputs.size()), seenOutput(m_spec.outputs.size());
    bool takesKeywords = false; // **kwargs receives every name
    for (const Param& p : f.params) {
        if (p.star == "**") takesKeywords = true;
        if (!p.star.empty()) {
            out.bindings.push_back({});
            continue;
        }
        const KernelBinding b = bindingOf(m_spec, p.name);
        out.bindings.push_back(b);
        const Annotation a = annotation(p.annotation);
        switch (b.role) {
        case KernelBinding::Role::Unbound:
            if (p.defaultValue) break; // the kernel's own default applies
            error(p.pos, "kernel.unbound-parameter",
                  "kernel parameter '" + p.name +
                      "' is not an input, output or parameter of the op" +
                      (m_spec.kernelArguments.empty() ? "" : " nor one of its kernel arguments") +
                      didYouMean(p.name, names));
            break;
        case KernelBinding::Role::Argument:
            break;
        case KernelBinding::Role::Input:
        case KernelBinding::Role::Output:
            (b.role == KernelBinding::Role::Input ? seenInput : seenOutput)[std::size_t(b.index)] =
                true;
            checkTensorAnnotation(p, b.role == KernelBinding::Role::Input, b.index, a);
            break;
        case KernelBinding::Role::Param:
            checkParamAnnotation(p, b.index, a);
            break;
        }
    }
    if (takesKeywords) return;
    for (std::size_t k = 0; k < seenInput.size(); ++k)
        if (!seenInput[k])
            error(f.pos, "kernel.missing-parameter",
                  "the kernel takes no parameter for input '" + m_spec.inputs[k].name + "'");
    for (std::size_t k = 0; k < seenOutput.size(); ++k)
        if (!seenOutput[k])
            error(f.pos, "kernel.missing-parameter",
                  "the kernel takes no parameter for output '" + m_spec.outputs[k].name + "'");
    for (const KernelArgumentSpec& arg : m_spec.kernelArguments)
        if (std::none_of(f.params.begin(), f.params.end(),
                         [&](const Param& p) { return p.name == arg.name; }))
            error(f.pos, "kernel.missing-parameter",
                  "the kernel takes no parameter named '" + arg.name +
                      "', which op.json's kernel arguments give a value");
}

namespace {

// PyPTO's status shape (Tensor._validate_status_shape): a list of pypto.STATIC / pypto.DYNAMIC
// markers and sizes, not all sizes. Its length is the least rank, as PyPTO's jit checks it
// (len(tensor.shape) < len(shape)): `[pypto.STATIC, pypto.STATIC]` takes a [1, 1, D] tensor.
bool isStatusShape(const Expr& shape)
{
    if (shape.kind != ExprKind::List) return false;
    bool marker = false;
    for (const ExprPtr& d : shape.kids) {
        const std::string& name =
            d->kind == ExprKind::Attribute || d->kind == ExprKind::Name ? d->text : std::string();
        if (name == "STATIC" || name == "DYNAMIC")
            marker = true;
        else if (d->kind != ExprKind::Int)
            return false;
    }
    return marker;
}

} // namespace

void Checker::checkTensorAnnotation(const Param& p, bool input, int index, const Annotation& a)
{
    const std::string what = std::string(input ? "input" : "output") + " '" + p.name + "'";
    if (a.kind == Annotation::Kind::NotTensor) {
        error(p.annotation->pos, "kernel.annotation",
              what + " is a tensor; annotate it pypto.Tensor[...] or pypto.Tensor([], DT)");
        return;
    }
    if (a.kind != Annotation::Kind::Tensor) return;
    // An annotation object defined elsewhere is reported where this parameter uses it.
    const bool named = p.annotation->kind == ExprKind::Name;
    const auto combinations = dtypeCombinations(m_spec);
    const std::vector<DType> allowed = input ? inputDTypes(combinations, std::size_t(index))
                                             : outputDTypes(combinations, std::size_t(index));
    if (auto fixed = dtypeConstant(a.dtype);
        fixed && std::find(allowed.begin(), allowed.end(), *fixed) == allowed.end()) {
        std::vector<std::string> allowedNames;
        for (DType d : allowed)
            allowedNames.emplace_back(dtypeName(d));
        error(named ? p.annotation->pos : a.dtype->pos, "kernel.annotation",
              "the annotation fixes " + what + " to " + std::string(dtypeInfo(*fixed).pypto) +
                  " (" + std::string(dtypeName(*fixed)) + "), but the op allows " +
                  joinQuoted(allowedNames));
    }
    const auto rank = input ? m_spec.inputs[std::size_t(index)].rank : std::nullopt;
    if (!rank || !a.shape || a.shape->kids.empty()) return;
    // `[pypto.DYNAMIC, ...]`: the ellipsis stands for the remaining dims, any number of them.
    const auto fixedDims =
        std::count_if(a.shape->kids.begin(), a.shape->kids.end(), [](const ExprPtr& d) {
            return d->kind != ExprKind::Ellipsis && d->kind != ExprKind::Starred;
        });
    const bool open = fixedDims != std::ptrdiff_t(a.shape->kids.size()) || isStatusShape(*a.shape);
    if (open ? fixedDims > *rank : fixedDims != *rank)
        error(named ? p.annotation->pos : a.shape->pos, "kernel.annotation",
              "the annotation gives " + what + (open ? " at least rank " : " rank ") +
                  std::to_string(fixedDims) + ", but the op says rank " + std::to_string(*rank));
}

void Checker::checkParamAnnotation(const Param& p, int index, const Annotation& a)
{
    if (!p.annotation) return;
    const ParamType type = m_spec.params[std::size_t(index)].type;
    const std::string written = writtenType(p.annotation);
    static const std::vector<std::pair<std::string, ParamType>> kTypes{
        {"bool", ParamType::Bool},
        {"int", ParamType::Int},
        {"float", ParamType::Float},
        {"str", ParamType::Str},
        {"List[int]", ParamType::IntList},
        {"list[int]", ParamType::IntList},
        {"List[float]", ParamType::FloatList},
        {"list[float]", ParamType::FloatList}};
    bool known = false, fits = false;
    for (const auto& [name, t] : kTypes)
        if (name == written) {
            known = true;
            fits = fits || t == type;
        }
    if (known && !fits)
        error(p.annotation->pos, "kernel.annotation",
              "parameter '" + p.name + "' is a " + std::string(paramTypeInfo(type).name) +
                  " in the op description, but is annotated " + written);
    if (a.kind == Annotation::Kind::Tensor)
        error(p.annotation->pos, "kernel.annotation",
              "parameter '" + p.name + "' is a " + std::string(paramTypeInfo(type).name) +
                  ", not a tensor");
}

} // namespace ptowb::kernel
