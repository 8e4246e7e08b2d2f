#include "diag/suggest.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "spec/source_check.h"
#include "torchscript/torchscript.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <unordered_map>

namespace ptowb {

namespace jit = torch::jit;
using torchscript::fromTorch;
using torchscript::toTorch;

namespace {

struct CompiledUnit
{
    std::shared_ptr<jit::CompilationUnit> unit;
    jit::Function* function = nullptr;
};

class TorchReferenceProgram : public ReferenceProgram
{
public:
    std::variant<std::vector<Tensor>, std::string>
    run(std::span<const Tensor> inputs, std::span<const rules::Value> params) const override;
    int returnLine() const override { return m_returnLine; }

    std::shared_ptr<const CompiledUnit> m_impl;
    // For each function argument: input slot (>= 0) or -(param slot + 1).
    std::vector<int> m_binding;
    std::vector<std::size_t>
        m_mutated; // inputs the reference writes in place, returned after the outputs
    std::size_t m_outputCount = 0;
    int m_returnLine = 1;
};

std::atomic<int> g_compilations{0};

struct CacheEntry
{
    std::string source;
    std::shared_ptr<const CompiledUnit> impl;
};

std::mutex g_cacheMutex;
std::unordered_map<std::size_t, std::vector<CacheEntry>> g_cache;

Diagnostic referenceDiagnostic(const std::string& file, int line, int col, std::string code,
                               std::string message)
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.col = col;
    d.endLine = line;
    d.endCol = col + 1;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

// TorchScript reports read: "<message>\n  File "<string>", line 6\n<excerpt with ~~~ <--- HERE>".
Diagnostic diagnosticFromReport(const std::string& report, const std::string& file)
{
    int line = 1, col = 1;
    std::smatch match;
    static const std::regex kLine(R"re(File "[^"]*", line (\d+))re");
    if (std::regex_search(report, match, kLine)) line = std::stoi(match[1]);
    std::string message =
        report.substr(0, match.empty() ? report.size() : std::size_t(match.position(0)));
    std::istringstream lines(report);
    for (std::string l; std::getline(lines, l);)
        if (l.find("<--- HERE") != std::string::npos) {
            col = int(l.find('~')) + 1;
            break;
        }
    // Keep the message itself: one line, without TorchScript's trailer about the original call.
    if (const std::size_t trailer = message.find("The original call is");
        trailer != std::string::npos)
        message.erase(trailer);
    // `raise RuntimeError(...)`: TorchScript compiled without Python knows no exception classes.
    // Import writes its not-yet-written references that way: say what is to be written.
    static const std::regex kUndefinedException(R"re(undefined value (\w*(Error|Exception)))re");
    static const std::regex kTodo(R"re(\(\s*"TODO:\s*([^"]*)")re");
    if (std::regex_search(message, match, kUndefinedException)) {
        std::smatch todo;
        if (std::regex_search(report, todo, kTodo))
            return referenceDiagnostic(file, line, std::max(col, 1), "reference.todo",
                                       "reference.py is still to be written: " + todo[1].str());
        message = "raise " + match[1].str() +
                  "(...) is not in the reference subset: use assert condition, \"message\"";
    }
    // TorchScript lists every overload with why it does not fit (kilobytes for `==`): the operator
    // and the first overload's reason.
    if (const std::size_t invalid = message.find("Arguments for call are not valid");
        invalid != std::string::npos) {
        const std::string listed = "variants are available:";
        const std::size_t variants = message.find(listed, invalid);
        const std::size_t reason = message.find("Expected a value of type", invalid);
        if (variants != std::string::npos && reason != std::string::npos) {
            std::size_t begin = message.find_first_not_of(" \n\t", variants + listed.size());
            begin = std::min(begin, message.size());
            if (message.compare(begin, 6, "aten::") == 0) begin += 6;
            const std::size_t end = std::min(message.find_first_of(".( \n", begin), message.size());
            const std::size_t stop = message.find("'.", reason);
            std::string why = message.substr(reason, stop == std::string::npos ? std::string::npos
                                                                               : stop + 1 - reason);
            why.front() = 'e';
            message = "no form of '" + message.substr(begin, end - begin) +
                      "' takes these arguments (the first: " + why + ")";
        }
    }
    static const std::regex kUnknownOp(
        R"re(Unknown builtin op: aten::(\w+)\.\s*(Here are some suggestions:([\s\S]*))?)re");
    if (std::regex_search(message, match, kUnknownOp)) {
        // TorchScript lists its candidates in its own order (torch.sliu: silu 7th of 10): the
        // three closest to the name written, closest first.
        std::vector<std::string> listed;
        static const std::regex kSuggestion(R"re(aten::(\w+))re");
        const std::string text = match[3];
        for (auto it = std::sregex_iterator(text.begin(), text.end(), kSuggestion);
             it != std::sregex_iterator(); ++it) {
            const std::string name = (*it)[1].str();
            if (name.front() != '_' && // private aten ops
                std::find(listed.begin(), listed.end(), name) == listed.end())
                listed.push_back(name);
        }
        std::string suggestions;
        for (const std::string& name : closestMatches(match[1].str(), listed, 3))
            suggestions += std::string(suggestions.empty() ? "" : " or ") + "'" + name + "'";
        message = "unknown torch function '" + match[1].str() + "'" +
                  (suggestions.empty() ? "" : "; did you mean " + suggestions + "?");
    }
    std::string cleaned;
    bool space = false;
    for (char c : message) {
        const bool blank = c == '\n' || c == '\t' || c == ' ';
        if (blank && space) continue;
        cleaned += blank ? ' ' : c;
        space = blank;
    }
    while (!cleaned.empty() && (cleaned.back() == ' ' || cleaned.back() == ':'))
        cleaned.pop_back();
    while (!cleaned.empty() && cleaned.front() == ' ')
        cleaned.erase(cleaned.begin());
    return referenceDiagnostic(file, line, std::max(col, 1), "reference.compile",
                               cleaned.empty() ? "TorchScript cannot compile the reference"
                                               : cleaned);
}

std::variant<std::shared_ptr<const CompiledUnit>, Diagnostic>
compileCached(const std::string& source, const std::string& function, const std::string& file)
{
    const std::size_t key =
        std::hash<std::string>()(source) ^ (std::hash<std::string>()(function) << 1);
    {
        std::lock_guard lock(g_cacheMutex);
        for (const auto& entry : g_cache[key])
            if (entry.source == source && entry.impl->function->name() == function)
                return entry.impl;
    }
    auto impl = std::make_shared<CompiledUnit>();
    try {
        ++g_compilations;
        impl->unit = torchscript::compile(source);
    } catch (const torchscript::ReferenceRejected& e) {
        return referenceDiagnostic(file, e.line, e.col, e.code, e.message);
    } catch (const std::exception& e) {
        return diagnosticFromReport(e.what(), file);
    }
    impl->function = impl->unit->find_function(c10::QualifiedName(function));
    if (!impl->function)
        return referenceDiagnostic(file, 1, 1, "reference.missing-function",
                                   "no function '" + function + "' in the reference");
    std::lock_guard lock(g_cacheMutex);
    g_cache[key].push_back({source, impl});
    return std::shared_ptr<const CompiledUnit>(impl);
}

int lineOfDef(const std::string& source, const std::string& function)
{
    std::istringstream in(source);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.rfind("def " + function, 0) == 0) return n;
    }
    return 1;
}

int lineOfLastReturn(const std::string& source, int defLine)
{
    std::istringstream in(source);
    int n = 0, last = defLine;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (n <= defLine) continue;
        if (!line.empty() && line[0] != ' ' && line[0] != '\t' && line[0] != '#')
            break; // next top-level statement
        if (line.find_first_not_of(" \t") != std::string::npos &&
            line.substr(line.find_first_not_of(" \t"), 7) == "return ")
            last = n;
    }
    return last;
}

bool argumentFits(const c10::TypePtr& type, ParamType p)
{
    using c10::TypeKind;
    switch (p) {
    case ParamType::Bool:
        return type->kind() == TypeKind::BoolType;
    case ParamType::Int:
        return type->kind() == TypeKind::IntType;
    case ParamType::Float:
        return type->kind() == TypeKind::FloatType;
    case ParamType::Str:
        return type->kind() == TypeKind::StringType;
    case ParamType::IntList:
        return type->kind() == TypeKind::ListType &&
               type->containedType(0)->kind() == TypeKind::IntType;
    case ParamType::FloatList:
        return type->kind() == TypeKind::ListType &&
               type->containedType(0)->kind() == TypeKind::FloatType;
    }
    return false;
}

c10::IValue toIValue(const rules::Value& v)
{
    switch (v.type) {
    case rules::Type::Bool:
        return c10::IValue(v.asBool());
    case rules::Type::Int:
        return c10::IValue(v.i);
    case rules::Type::Float:
        return c10::IValue(v.f);
    case rules::Type::Str:
        return c10::IValue(v.s);
    case rules::Type::Shape:
        return c10::IValue(v.ints);
    case rules::Type::FloatList:
        return c10::IValue(v.floats);
    default:
        return {};
    }
}

// TorchScript's runtime errors carry a traceback; keep its last line and the reference line.
std::string runtimeMessage(const std::string& what)
{
    static const std::regex kLine(R"re(File "<string>", line (\d+))re");
    std::string lineNote;
    for (auto it = std::sregex_iterator(what.begin(), what.end(), kLine);
         it != std::sregex_iterator(); ++it)
        lineNote = " (reference line " + (*it)[1].str() + ")";
    std::string last;
    std::istringstream in(what);
    for (std::string l; std::getline(in, l);) {
        // c10's own errors end in the C++ stack they were raised from: not the author's.
        if (l.rfind("Exception raised from ", 0) == 0) break;
        if (!l.empty() && l.find_first_not_of(' ') != std::string::npos) last = l;
    }
    const std::size_t exception = last.find("Error: ");
    if (exception != std::string::npos) last = last.substr(exception + 7);
    return "the reference failed" + lineNote + ": " + last;
}

} // namespace

ReferenceProgram::LoadResult loadTorchReference(const OpSpec& spec, const std::string& source,
                                                const std::string& fileName)
{
    using LoadResult = ReferenceProgram::LoadResult;
    LoadResult result;
    const std::string& function = spec.reference.function;
    // Every problem of the text at once, with its place; compiling would stop at the first.
    result.diagnostics = checkReferenceSource(source, fileName);
    if (hasErrors(result.diagnostics)) return result;
    const int defLine = lineOfDef(source, function);
    auto compiled = compileCached(source, function, fileName);
    if (auto* d = std::get_if<Diagnostic>(&compiled)) {
        result.diagnostics.push_back(*d);
        return result;
    }
    auto program = std::make_shared<TorchReferenceProgram>();
    program->m_impl = std::get<std::shared_ptr<const CompiledUnit>>(compiled);
    program->m_returnLine = lineOfLastReturn(source, defLine);
    const c10::FunctionSchema& schema = program->m_impl->function->getSchema();

    auto error = [&](std::string message) {
        result.diagnostics.push_back(
            referenceDiagnostic(fileName, defLine, 1, "reference.signature", std::move(message)));
    };
    std::vector<std::string> names;
    for (const auto& in : spec.inputs)
        names.push_back(in.name);
    for (const auto& p : spec.params)
        names.push_back(p.name);
    std::vector<bool> used(names.size(), false);
    program->m_mutated = spec.mutatedInputs();
    for (const c10::Argument& arg : schema.arguments()) {
        const int input = spec.inputIndex(arg.name());
        const int param = spec.paramIndex(arg.name());
        if (input >= 0) {
            if (arg.type()->kind() != c10::TypeKind::TensorType)
                error("argument '" + arg.name() + "' is op input '" + arg.name() +
                      "' and must be annotated Tensor, not " + arg.type()->str());
            program->m_binding.push_back(input);
            used[std::size_t(input)] = true;
        } else if (param >= 0) {
            const ParamType type = spec.params[std::size_t(param)].type;
            if (!argumentFits(arg.type(), type))
                error("argument '" + arg.name() + "' is a " +
                      std::string(paramTypeInfo(type).name) + " parameter, but is annotated " +
                      arg.type()->str());
            program->m_binding.push_back(-(param + 1));
            used[spec.inputs.size() + std::size_t(param)] = true;
        } else {
            error("argument '" + arg.name() + "' is neither an input nor a parameter of the op" +
                  didYouMean(arg.name(), names));
        }
    }
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        if (!used[k])
            error("the reference takes no argument for input '" + spec.inputs[k].name + "'");

    const c10::TypePtr& returns = schema.returns().at(0).type();
    if (returns->kind() == c10::TypeKind::TensorType) {
        program->m_outputCount = 1;
    } else if (returns->kind() == c10::TypeKind::TupleType) {
        program->m_outputCount = returns->containedTypes().size();
        for (const auto& t : returns->containedTypes())
            if (t->kind() != c10::TypeKind::TensorType) program->m_outputCount = 0;
    }
    // An op with no output of its own returns None, nothing else (an int or a list would
    // pass the count of zero Tensors).
    const bool wrongReturn = spec.outputs.empty() ? returns->kind() != c10::TypeKind::NoneType
                                                  : program->m_outputCount != spec.outputs.size();
    if (wrongReturn) {
        const std::string want =
            spec.outputs.empty() ? "None (it writes the inputs it updates)"
            : spec.outputs.size() == 1
                ? "a Tensor"
                : "a tuple of " + std::to_string(spec.outputs.size()) + " Tensors";
        result.diagnostics.push_back(referenceDiagnostic(
            fileName, program->m_returnLine, 1, "reference.return-type",
            "the op has " + std::to_string(spec.outputs.size()) + " output" +
                (spec.outputs.size() == 1 ? "" : "s") + ", so the reference must return " + want +
                ", not " + returns->str()));
    }
    if (!hasErrors(result.diagnostics)) result.program = std::move(program);
    return result;
}

std::variant<std::vector<Tensor>, std::string>
TorchReferenceProgram::run(std::span<const Tensor> inputs,
                           std::span<const rules::Value> params) const
{
    try {
        c10::InferenceMode guard;
        std::vector<c10::IValue> stack;
        std::map<std::size_t, at::Tensor> passed;
        for (int slot : m_binding) {
            if (slot >= 0) {
                // A copy: the reference may write to its arguments (a mutated input's is read
                // back).
                at::Tensor copy = torchscript::toAten(inputs[std::size_t(slot)]);
                passed[std::size_t(slot)] = copy;
                stack.emplace_back(std::move(copy));
            } else {
                stack.push_back(toIValue(params[std::size_t(-slot - 1)]));
            }
        }
        c10::IValue result = (*m_impl->function)(std::move(stack));
        std::vector<at::Tensor> produced;
        if (result.isTensor())
            produced.push_back(result.toTensor());
        else if (!result.isNone())
            for (const auto& element : result.toTupleRef().elements())
                produced.push_back(element.toTensor());
        for (std::size_t k :
             m_mutated) // a mutated input the reference does not take stays as it was
            produced.push_back(passed.count(k) ? passed[k] : torchscript::toAten(inputs[k]));
        std::vector<Tensor> outputs;
        for (std::size_t k = 0; k < produced.size(); ++k) {
            auto out = torchscript::fromAten(produced[k]);
            if (!out)
                return "output " + std::to_string(k) + " has dtype " +
                       std::string(c10::toString(produced[k].scalar_type())) +
                       ", which op outputs cannot have";
            outputs.push_back(std::move(*out));
        }
        return outputs;
    } catch (const std::exception& e) {
        return runtimeMessage(e.what());
    }
}

class TorchReferenceEngine : public ReferenceEngine
{
public:
    ReferenceProgram::LoadResult load(const OpSpec& spec, const std::string& source,
                                      const std::string& fileName) const override
    {
        return loadTorchReference(spec, source, fileName);
    }
    int compilationCount() const override { return g_compilations.load(); }
};

} // namespace ptowb

extern "C" __attribute__((visibility("default"))) const ptowb::ReferenceEngine*
ptowb_reference_engine()
{
    static const ptowb::TorchReferenceEngine engine;
    return &engine;
}
