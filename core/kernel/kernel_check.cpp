#include "diag/suggest.h"
#include "interpreter/interpreter.h"
#include "kernel/kernel_check_impl.h"
#include "kernel/kernel_parser.h"
#include "kernel/pypto_api.h"
#include "kernel/pypto_releases.h"
#include "worker_client/worker_client.h"

#include <algorithm>
#include <mutex>
#include <set>

namespace ptowb::kernel {

namespace {

// Imports in the kernel's own body (not in functions nested in it) also name pypto there.
void bodyImports(const std::vector<Stmt>& body,
                 std::vector<std::pair<std::string, std::string>>& out)
{
    for (const Stmt& s : body) {
        if (s.kind == StmtKind::Import) out.insert(out.end(), s.names.begin(), s.names.end());
        if (s.kind == StmtKind::Def || s.kind == StmtKind::Class) continue;
        bodyImports(s.body, out);
        bodyImports(s.orelse, out);
        for (const Stmt& h : s.handlers)
            bodyImports(h.body, out);
    }
}

// Every def named `name` anywhere inside `body`: a kernel made inside a function (kernel.made_by).
void nestedDefs(const std::vector<Stmt>& body, const std::string& name,
                std::vector<const FunctionDef*>& out)
{
    for (const Stmt& s : body) {
        if (s.kind == StmtKind::Def && s.function) {
            if (s.function->name == name) out.push_back(s.function.get());
            nestedDefs(s.function->body, name, out);
        }
        for (const auto* part : {&s.body, &s.orelse, &s.handlers})
            nestedDefs(*part, name, out);
    }
}

// Whether op.json binds each parameter of `f` (or it has a default).
bool bindsEveryParameter(const FunctionDef& f, const OpSpec& spec)
{
    return std::all_of(f.params.begin(), f.params.end(), [&](const Param& p) {
        return !p.star.empty() || p.defaultValue ||
               bindingOf(spec, p.name).role != KernelBinding::Role::Unbound;
    });
}

// Of several defs of the kernel's name (a factory's `if has_bias:` builds one of two), the first
// whose parameters op.json binds, else the first.
const FunctionDef* bestDef(const std::vector<const FunctionDef*>& defs, const OpSpec& spec)
{
    for (const FunctionDef* f : defs)
        if (bindsEveryParameter(*f, spec)) return f;
    return defs.empty() ? nullptr : defs.front();
}

// The kernel's def: at the top level, or, for a kernel made inside a function, within the
// function (or class) kernel.made_by names, else in a function it may call (a launcher, a
// factory: a def of that name anywhere in the file); nullptr when the file holds none.
const FunctionDef* kernelDef(const Module& module, const OpSpec& spec)
{
    const SourceFileRef& kernel = spec.kernel;
    if (kernel.madeBy.empty()) {
        for (const auto& f : module.functions)
            if (f.name == kernel.function) return &f;
        return nullptr;
    }
    const std::string head = kernel.maker();
    for (const Stmt& s : module.statements) {
        std::vector<const FunctionDef*> inside;
        if (s.kind == StmtKind::Def && s.function && s.function->name == head)
            nestedDefs(s.function->body, kernel.function, inside);
        if (s.kind == StmtKind::Class && s.op == head) nestedDefs(s.body, kernel.function, inside);
        if (!inside.empty()) return bestDef(inside, spec);
    }
    std::vector<const FunctionDef*> anywhere;
    nestedDefs(module.statements, kernel.function, anywhere);
    return bestDef(anywhere, spec);
}

} // namespace

namespace {

// The installed PyPTO release of the interpreter kernels run in (interpreter/interpreter.h), for
// the checks of a release's API; "" when none the workbench knows. An interpreter that cannot
// run kernels is asked once per process, not on every check.
std::pair<std::string, std::string> installedRelease()
{
    static std::mutex mutex;
    static std::set<std::string> unusable;
    const std::string python = interpreter::choosePython(worker::WorkerClient::chosenPython());
    {
        std::lock_guard lock(mutex);
        if (unusable.count(python)) return {};
    }
    const auto found = interpreter::kernelInterpreter(python);
    const auto* i = std::get_if<interpreter::Interpreter>(&found);
    if (!i) {
        std::lock_guard lock(mutex);
        unusable.insert(python);
        return {};
    }
    if (!knownRelease(i->pypto)) return {};
    return {i->pypto, i->path};
}

} // namespace

CheckedKernel Checker::run(const Module& module)
{
    CheckedKernel out;
    m_out = &out;
    std::tie(m_release, m_releasePython) = installedRelease();
    addImports(module.imports);
    collectValues(module.statements);
    // A missing top-level function is the description's check; a made kernel whose def is in
    // another module is checked when it runs.
    out.function = kernelDef(module, m_spec);
    if (!out.function) return out;
    std::vector<std::pair<std::string, std::string>> local;
    bodyImports(out.function->body, local);
    addImports(local);
    const bool starImport = std::any_of(m_imports.begin(), m_imports.end(), [](const auto& i) {
        return i.first == "*" && (i.second == "pypto" || i.second.rfind("pypto.", 0) == 0);
    });
    if (out.pyptoAliases.empty() && out.pyptoImports.empty() && !starImport)
        error(out.function->pos, "kernel.no-pypto", "the kernel file does not import pypto");
    bind(*out.function, out);
    for (const Param& p : out.function->params) {
        expression(p.annotation);
        expression(p.defaultValue);
    }
    for (const auto& s : out.function->body)
        statement(s, false);
    // Helpers, configs and module code call pypto too: a misspelt function there fails the
    // same run. The file's other kernels are not run by this one (PyPTO's example files hold
    // several, some calling functions their release lacks): they are left to their own op.
    // A made kernel's maker holds the kernel's def: checked above, not twice.
    const std::string maker = m_spec.kernel.maker();
    for (const auto& s : module.statements)
        if (!(s.kind == StmtKind::Def &&
              (s.function->name == out.function->name || s.function->name == maker ||
               isJitKernel(module, *s.function))) &&
            !(s.kind == StmtKind::Class && !maker.empty() && s.op == maker))
            statement(s, true);
    return out;
}

void Checker::error(Pos pos, const std::string& code, const std::string& message)
{
    m_diagnostics.push_back(diagnosticAt(m_file, pos, code, message));
}

void Checker::addImports(const std::vector<std::pair<std::string, std::string>>& imports)
{
    for (const auto& [alias, path] : imports) {
        m_imports.push_back({alias, path});
        if (path == "pypto")
            m_out->pyptoAliases.push_back(alias);
        else if (path.rfind("pypto.", 0) == 0 && path.find('.', 6) == std::string::npos)
            m_out->pyptoImports.push_back({alias, path.substr(6)});
    }
}

bool Checker::isPypto(const ExprPtr& e) const
{
    return e && e->kind == ExprKind::Name &&
           std::find(m_out->pyptoAliases.begin(), m_out->pyptoAliases.end(), e->text) !=
               m_out->pyptoAliases.end();
}

// `pypto.DT_FP16` -> its dtype, when the expression is one.
std::optional<DType> Checker::dtypeConstant(const ExprPtr& e) const
{
    if (e && e->kind == ExprKind::Attribute && isPypto(e->kids[0])) return dtypeFromPypto(e->text);
    return std::nullopt;
}

std::string Checker::apiName(const ExprPtr& f) const
{
    if (f->kind == ExprKind::Attribute && isPypto(f->kids[0])) return f->text;
    if (f->kind == ExprKind::Name)
        for (const auto& [alias, name] : m_out->pyptoImports)
            if (alias == f->text) return name;
    return {};
}

// Every statement of the kernel is checked, nested blocks, functions and classes included;
// what none of the checks is about is ordinary Python, left to the interpreter.
void Checker::statement(const Stmt& s, bool nested)
{
    for (const auto& t : s.targets)
        expression(t);
    expression(s.value);
    for (const auto& e : s.exprs)
        expression(e);
    for (const auto& b : s.body)
        statement(b, nested || s.kind == StmtKind::Class);
    for (const auto& b : s.orelse)
        statement(b, nested);
    for (const auto& h : s.handlers)
        statement(h, nested);
    if (s.kind == StmtKind::Def && s.function) function(*s.function);
    if (s.kind == StmtKind::Return && s.value && !nested)
        error(s.pos, "kernel.return",
              "a kernel returns nothing: write results into its output parameters (out[:] = "
              "...)");
}

void Checker::function(const FunctionDef& f)
{
    for (const auto& d : f.decorators)
        expression(d);
    for (const Param& p : f.params) {
        expression(p.annotation);
        expression(p.defaultValue);
    }
    expression(f.returns);
    for (const auto& s : f.body)
        statement(s, true); // a helper's `return` is its own
}

void Checker::expression(const ExprPtr& e)
{
    if (!e) return;
    if (e->kind == ExprKind::Attribute && isPypto(e->kids[0]) && e->text.rfind("DT_", 0) == 0 &&
        !dtypeFromPypto(e->text)) {
        std::vector<std::string> names;
        for (const auto& info : allDTypes())
            names.emplace_back(info.pypto);
        // A dtype of PyPTO's that the simulator lacks is valid code: the run says so, if it
        // gets there. A name PyPTO does not have is a mistake.
        const bool pyptos = isPyptoConstant(e->text);
        error(Pos{e->end.line, e->end.col - int(e->text.size())}, "kernel.unknown-dtype",
              "pypto." + e->text + " is not a dtype the simulator supports" +
                  (pyptos ? "" : didYouMean(e->text, names)));
        if (pyptos) m_diagnostics.back().severity = Severity::Warning;
    }
    if (e->kind == ExprKind::Call) call(*e);
    for (const auto& k : e->kids)
        if (!(e->kind == ExprKind::Call && k == e->kids[0] && k->kind == ExprKind::Attribute &&
              isPypto(k->kids[0])))
            expression(k);
    for (const auto& k : e->keywords)
        expression(k.value);
}

void Checker::call(const Expr& e)
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
    if (!m_release.empty() && releaseLacks(m_release, name)) {
        error(f->kind == ExprKind::Attribute ? Pos{f->end.line, f->end.col - int(name.size())}
                                             : f->pos,
              "kernel.pypto-version",
              "pypto." + name + " is not in pypto " + m_release + ", the version in " +
                  m_releasePython + ": the kernel runs here but not under that PyPTO");
        m_diagnostics.back().severity = Severity::Warning;
    }
    if (api->variadicKeywords) return; // loop(*args, **kwargs) and the like take what PyPTO's do
    // `f(*args)` and `f(**options)` give arguments no count can see: only names are checked.
    const bool unpacked =
        std::any_of(e.kids.begin(), e.kids.end(),
                    [](const ExprPtr& k) { return k->kind == ExprKind::Starred; }) ||
        std::any_of(e.keywords.begin(), e.keywords.end(),
                    [](const Keyword& k) { return k.name.empty(); });
    const std::size_t positional = e.kids.size() - 1;
    if (!unpacked && !api->variadic && positional > api->params.size())
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
        if (kw.name.empty()) continue;
        const auto it = std::find(allowed.begin(), allowed.end(), kw.name);
        if (it == allowed.end()) {
            error(kw.pos, "kernel.arguments",
                  "pypto." + name + " has no argument '" + kw.name + "'" +
                      didYouMean(kw.name, allowed));
            continue;
        }
        const std::size_t index = std::size_t(it - allowed.begin());
        if (index < given.size()) {
            if (given[index] && !unpacked)
                error(kw.pos, "kernel.arguments",
                      "pypto." + name + " got argument '" + kw.name + "' twice");
            given[index] = true;
        }
    }
    if (unpacked) return;
    for (int k = 0; k < api->required; ++k)
        if (!given[std::size_t(k)])
            error(e.pos, "kernel.arguments",
                  "pypto." + name + " needs argument '" + std::string(api->params[std::size_t(k)]) +
                      "'");
}

CheckedKernel checkKernel(const Module& module, const OpSpec& spec, const std::string& file,
                          Diagnostics& diagnostics)
{
    return Checker(spec, file, diagnostics).run(module);
}

Diagnostics checkKernelSource(std::string_view source, const OpSpec& spec, const std::string& file)
{
    Diagnostics diagnostics;
    const Module module = parseKernel(source, file, diagnostics);
    if (hasErrors(diagnostics)) {
        // Python's own parser (which runs nothing) is the judge of syntax: it confirms the
        // error, and says it in its words at its place. Should it find the file valid, the
        // statement the checker could not read is skipped and the rest still checked.
        const nlohmann::json answer = worker::WorkerClient::forChecks().call(
            {{"op", "syntax"}, {"source", std::string(source)}, {"file", file}},
            worker::kCheckSeconds, nullptr);
        if (answer.value("status", "") == "ok") {
            diagnostics.clear();
        } else if (answer.value("code", "") == "kernel.syntax") {
            diagnostics = {diagnosticAt(file, {answer.value("line", 1), answer.value("col", 1)},
                                        "kernel.syntax", answer.value("message", ""))};
        } // no interpreter to ask: the checker's own syntax errors stand
    }
    checkKernel(module, spec, file, diagnostics);
    return diagnostics;
}

} // namespace ptowb::kernel
