#include "kernel/kernel_check.h"

#include "diag/suggest.h"
#include "kernel/kernel_parser.h"
#include "kernel/pypto_api.h"
#include "spec/dtype_combinations.h"
#include "worker_client/worker_client.h"

#include <algorithm>

namespace ptowb::kernel {

namespace {

class Checker
{
public:
    Checker(const OpSpec& spec, const std::string& file, Diagnostics& diagnostics)
        : m_spec(spec), m_file(file), m_diagnostics(diagnostics)
    {
    }

    CheckedKernel run(const Module& module)
    {
        CheckedKernel out;
        for (const auto& [alias, path] : module.imports) {
            if (path == "pypto")
                out.pyptoAliases.push_back(alias);
            else if (path.rfind("pypto.", 0) == 0 && path.find('.', 6) == std::string::npos)
                out.pyptoImports.push_back({alias, path.substr(6)});
        }
        m_out = &out;
        for (const auto& f : module.functions)
            if (f.name == m_spec.kernel.function) out.function = &f;
        if (!out.function) return out; // the description's check reports a missing function
        if (out.pyptoAliases.empty() && out.pyptoImports.empty())
            error(out.function->pos, "kernel.no-pypto", "the kernel file does not import pypto");
        bind(*out.function, out);
        for (const auto& s : out.function->body)
            statement(s);
        return out;
    }

private:
    void error(Pos pos, const std::string& code, const std::string& message,
               Severity severity = Severity::Error)
    {
        m_diagnostics.push_back(diagnosticAt(m_file, pos, code, message));
        m_diagnostics.back().severity = severity;
    }

    bool isPypto(const ExprPtr& e) const
    {
        return e && e->kind == ExprKind::Name &&
               std::find(m_out->pyptoAliases.begin(), m_out->pyptoAliases.end(), e->text) !=
                   m_out->pyptoAliases.end();
    }

    // `pypto.DT_FP16` -> its dtype, when the expression is one.
    std::optional<DType> dtypeConstant(const ExprPtr& e) const
    {
        if (e && e->kind == ExprKind::Attribute && isPypto(e->kids[0]))
            return dtypeFromPypto(e->text);
        return std::nullopt;
    }

    bool isTensorAnnotation(const ExprPtr& a) const
    {
        if (!a) return true; // unannotated: nothing to contradict
        ExprPtr base = a;
        if (base->kind == ExprKind::Subscript || base->kind == ExprKind::Call) base = base->kids[0];
        return base->kind == ExprKind::Attribute && base->text == "Tensor" &&
               isPypto(base->kids[0]);
    }

    void bind(const FunctionDef& f, CheckedKernel& out)
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
        const auto combinations = dtypeCombinations(m_spec);
        for (const Param& p : f.params) {
            KernelBinding b;
            if (int k = m_spec.inputIndex(p.name); k >= 0) b = {KernelBinding::Role::Input, k};
            for (std::size_t k = 0; k < m_spec.outputs.size(); ++k)
                if (m_spec.outputs[k].name == p.name) b = {KernelBinding::Role::Output, int(k)};
            if (int k = m_spec.paramIndex(p.name); k >= 0) b = {KernelBinding::Role::Param, k};
            for (std::size_t k = 0; k < m_spec.kernelArguments.size(); ++k)
                if (m_spec.kernelArguments[k].name == p.name)
                    b = {KernelBinding::Role::Argument, int(k)};
            out.bindings.push_back(b);
            switch (b.role) {
            case KernelBinding::Role::Unbound:
                if (p.defaultValue) break; // the kernel's own default applies
                error(
                    p.pos, "kernel.unbound-parameter",
                    "kernel parameter '" + p.name +
                        "' is not an input, output or parameter of the op" +
                        (m_spec.kernelArguments.empty() ? "" : " nor one of its kernel arguments") +
                        didYouMean(p.name, names));
                break;
            case KernelBinding::Role::Argument:
                break;
            case KernelBinding::Role::Input:
            case KernelBinding::Role::Output: {
                const bool input = b.role == KernelBinding::Role::Input;
                (input ? seenInput : seenOutput)[std::size_t(b.index)] = true;
                const std::string what =
                    std::string(input ? "input" : "output") + " '" + p.name + "'";
                if (!isTensorAnnotation(p.annotation)) {
                    error(
                        p.pos, "kernel.annotation",
                        what +
                            " is a tensor; annotate it pypto.Tensor[...] or pypto.Tensor([], DT)");
                    break;
                }
                if (p.annotation && p.annotation->kind == ExprKind::Call &&
                    p.annotation->kids.size() >= 3) {
                    const std::vector<DType> allowed =
                        input ? inputDTypes(combinations, std::size_t(b.index))
                              : outputDTypes(combinations, std::size_t(b.index));
                    if (auto fixed = dtypeConstant(p.annotation->kids[2]);
                        fixed &&
                        std::find(allowed.begin(), allowed.end(), *fixed) == allowed.end()) {
                        std::vector<std::string> allowedNames;
                        for (DType d : allowed)
                            allowedNames.emplace_back(dtypeName(d));
                        error(p.annotation->kids[2]->pos, "kernel.annotation",
                              "the annotation fixes " + what + " to " +
                                  std::string(dtypeInfo(*fixed).pypto) + " (" +
                                  std::string(dtypeName(*fixed)) + "), but the op allows " +
                                  joinQuoted(allowedNames));
                    }
                    const ExprPtr& shape = p.annotation->kids[1];
                    const auto rank =
                        input ? m_spec.inputs[std::size_t(b.index)].rank : std::nullopt;
                    if (rank && (shape->kind == ExprKind::Tuple || shape->kind == ExprKind::List) &&
                        !shape->kids.empty() && int(shape->kids.size()) != *rank)
                        error(shape->pos, "kernel.annotation",
                              "the annotation gives " + what + " rank " +
                                  std::to_string(shape->kids.size()) + ", but the op says rank " +
                                  std::to_string(*rank));
                }
                break;
            }
            case KernelBinding::Role::Param: {
                const ParamType type = m_spec.params[std::size_t(b.index)].type;
                if (!p.annotation) break;
                std::string written =
                    p.annotation->kind == ExprKind::Name ? p.annotation->text : "";
                if (p.annotation->kind == ExprKind::Subscript &&
                    p.annotation->kids[0]->kind == ExprKind::Name) {
                    written = p.annotation->kids[0]->text;
                    if (p.annotation->kids.size() > 1 &&
                        p.annotation->kids[1]->kind == ExprKind::Name)
                        written += "[" + p.annotation->kids[1]->text + "]";
                }
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
                          "parameter '" + p.name + "' is a " +
                              std::string(paramTypeInfo(type).name) +
                              " in the op description, but is annotated " + written);
                if (isTensorAnnotation(p.annotation) && p.annotation->kind != ExprKind::Name)
                    error(p.annotation->pos, "kernel.annotation",
                          "parameter '" + p.name + "' is a " +
                              std::string(paramTypeInfo(type).name) + ", not a tensor");
                break;
            }
            }
        }
        for (std::size_t k = 0; k < seenInput.size(); ++k)
            if (!seenInput[k])
                error(f.pos, "kernel.missing-parameter",
                      "the kernel takes no parameter for input '" + m_spec.inputs[k].name + "'");
        for (std::size_t k = 0; k < seenOutput.size(); ++k)
            if (!seenOutput[k])
                error(f.pos, "kernel.missing-parameter",
                      "the kernel takes no parameter for output '" + m_spec.outputs[k].name + "'");
        for (const KernelArgumentSpec& a : m_spec.kernelArguments)
            if (std::none_of(f.params.begin(), f.params.end(),
                             [&](const Param& p) { return p.name == a.name; }))
                error(f.pos, "kernel.missing-parameter",
                      "the kernel takes no parameter named '" + a.name +
                          "', which op.json's kernel arguments give a value");
    }

    void statement(const Stmt& s)
    {
        for (const auto& t : s.targets)
            expression(t);
        expression(s.value);
        for (const auto& b : s.body)
            statement(b);
        for (const auto& b : s.orelse)
            statement(b);
        if (s.kind == StmtKind::For) {
            const ExprPtr& iter = s.value;
            const bool loop =
                iter && iter->kind == ExprKind::Call &&
                ((iter->kids[0]->kind == ExprKind::Attribute && iter->kids[0]->text == "loop" &&
                  isPypto(iter->kids[0]->kids[0])) ||
                 (iter->kids[0]->kind == ExprKind::Name &&
                  (iter->kids[0]->text == "range" || apiName(iter->kids[0]) == "loop")));
            if (!loop)
                error(s.pos, "kernel.unsupported",
                      "not supported by the simulator: a for loop over anything but "
                      "pypto.loop(...) or range(...)");
            if (!s.targets.empty() && s.targets[0]->kind != ExprKind::Name)
                error(s.targets[0]->pos, "kernel.unsupported",
                      "not supported by the simulator: unpacking a loop variable");
        }
        if (s.kind == StmtKind::Return && s.value)
            error(s.pos, "kernel.return",
                  "a kernel returns nothing: write results into its output parameters (out[:] = "
                  "...)");
    }

    std::string apiName(const ExprPtr& f) const
    {
        if (f->kind == ExprKind::Attribute && isPypto(f->kids[0])) return f->text;
        if (f->kind == ExprKind::Name)
            for (const auto& [alias, name] : m_out->pyptoImports)
                if (alias == f->text) return name;
        return {};
    }

    void expression(const ExprPtr& e)
    {
        if (!e) return;
        if (e->kind == ExprKind::Dict)
            error(e->pos, "kernel.unsupported", "not supported by the simulator: dict literals");
        if (e->kind == ExprKind::Attribute && isPypto(e->kids[0]) && e->text.rfind("DT_", 0) == 0 &&
            !dtypeFromPypto(e->text)) {
            std::vector<std::string> names;
            for (const auto& info : allDTypes())
                names.emplace_back(info.pypto);
            error(Pos{e->end.line, e->end.col - int(e->text.size())}, "kernel.unknown-dtype",
                  "pypto." + e->text + " is not a dtype the simulator supports" +
                      didYouMean(e->text, names));
        }
        if (e->kind == ExprKind::Call) call(*e);
        for (const auto& k : e->kids)
            if (!(e->kind == ExprKind::Call && k == e->kids[0] && k->kind == ExprKind::Attribute &&
                  isPypto(k->kids[0])))
                expression(k);
        for (const auto& k : e->keywords)
            expression(k.value);
    }

    void call(const Expr& e)
    {
        const ExprPtr& f = e.kids[0];
        const std::string name = apiName(f);
        // Helpers, builtins and tensor methods are ordinary Python: checked when the kernel runs.
        if (name.empty()) return;
        const ApiFunction* api = findApi(name);
        if (!api && isPyptoConstant(name)) return; // pypto.Tensor(...), pypto.options(...)
        if (!api) {
            error(f->kind == ExprKind::Attribute ? Pos{f->end.line, f->end.col - int(name.size())}
                                                 : f->pos,
                  "kernel.unknown-function",
                  "unknown pypto function '" + name + "'" + didYouMean(name, apiNames()));
            return;
        }
        if (api->variadicKeywords)
            return; // loop(*args, **kwargs) and the like take what PyPTO's do
        const std::size_t positional = e.kids.size() - 1;
        if (!api->variadic && positional > api->params.size())
            error(e.kids[api->params.size() + 1]->pos, "kernel.arguments",
                  "pypto." + name + " takes at most " + std::to_string(api->params.size()) +
                      " positional argument" + (api->params.size() == 1 ? "" : "s") + ", got " +
                      std::to_string(positional));
        std::vector<std::string> allowed;
        for (auto p : api->params)
            allowed.emplace_back(p);
        for (auto p : api->keywordOnly)
            allowed.emplace_back(p);
        std::vector<bool> given(api->params.size(), false);
        for (std::size_t k = 0; k < positional && k < given.size(); ++k)
            given[k] = true;
        for (const Keyword& kw : e.keywords) {
            const auto it = std::find(allowed.begin(), allowed.end(), kw.name);
            if (it == allowed.end()) {
                error(kw.pos, "kernel.arguments",
                      "pypto." + name + " has no argument '" + kw.name + "'" +
                          didYouMean(kw.name, allowed));
                continue;
            }
            const std::size_t index = std::size_t(it - allowed.begin());
            if (index < given.size()) {
                if (given[index])
                    error(kw.pos, "kernel.arguments",
                          "pypto." + name + " got argument '" + kw.name + "' twice");
                given[index] = true;
            }
        }
        for (int k = 0; k < api->required; ++k)
            if (!given[std::size_t(k)])
                error(e.pos, "kernel.arguments",
                      "pypto." + name + " needs argument '" +
                          std::string(api->params[std::size_t(k)]) + "'");
    }

    const OpSpec& m_spec;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
    CheckedKernel* m_out = nullptr;
};

} // namespace

CheckedKernel checkKernel(const Module& module, const OpSpec& spec, const std::string& file,
                          Diagnostics& diagnostics)
{
    return Checker(spec, file, diagnostics).run(module);
}

Diagnostics checkKernelSource(std::string_view source, const OpSpec& spec, const std::string& file)
{
    Diagnostics diagnostics;
    const Module module = parseKernel(source, file, diagnostics);
    // The kernel runs in CPython: a construct the checker does not model is not an error.
    std::erase_if(diagnostics, [](const Diagnostic& d) { return d.code == "kernel.unsupported"; });
    if (diagnostics.empty()) {
        checkKernel(module, spec, file, diagnostics);
        std::erase_if(diagnostics,
                      [](const Diagnostic& d) { return d.code == "kernel.unsupported"; });
        return diagnostics;
    }
    // The checker's parser did not understand the file: Python's own parser (which runs
    // nothing) says whether it is valid, and where it is not.
    diagnostics.clear();
    const nlohmann::json answer = worker::WorkerClient::forChecks().call(
        {{"op", "syntax"}, {"source", std::string(source)}, {"file", file}}, 10, nullptr);
    if (answer.value("status", "") == "ok") return diagnostics;
    Diagnostic d = diagnosticAt(file, {answer.value("line", 1), answer.value("col", 1)},
                                answer.value("code", "kernel.syntax"), answer.value("message", ""));
    if (d.code != "kernel.syntax")
        d.severity = Severity::Warning; // the worker is missing: say so, but the file may be fine
    diagnostics.push_back(std::move(d));
    return diagnostics;
}

} // namespace ptowb::kernel
