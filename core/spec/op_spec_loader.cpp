#include "spec/op_spec_loader.h"

#include "diag/suggest.h"
#include "spec/case_loader.h"
#include "spec/identifiers.h"
#include "spec/inference.h"
#include "spec/kernel_arguments.h"
#include "spec/made_with.h"
#include "spec/op_json_vocabulary.h"
#include "spec/source_check.h"
#include "spec/spec_reader.h"

#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

namespace ptowb {
namespace {

using json = nlohmann::json;

const std::vector<std::string> kTopKeys = opJsonWords(OpJsonWordKind::TopKey);
const std::vector<std::string> kCriteria = opJsonWords(OpJsonWordKind::Criterion);

std::vector<std::string> dtypeNames()
{
    std::vector<std::string> names;
    for (const auto& d : allDTypes())
        names.emplace_back(d.name);
    return names;
}

} // namespace

void readToleranceObject(SpecReader& r, const nlohmann::json& tol, const std::string& pointer,
                         ToleranceSpec& into)
{
    std::vector<std::string> known = dtypeNames();
    known.insert(known.end(), {"criteria", "max_error_ratio", "min_cosine"});
    r.checkKeys(tol, pointer, known);
    for (const auto& info : allDTypes()) {
        const json* bounds = r.object(tol, pointer, std::string(info.name).c_str(), false);
        if (!bounds) continue;
        const std::string ptr = pointer + "/" + std::string(info.name);
        r.checkKeys(*bounds, ptr, {"rtol", "atol"});
        auto rtol = r.number(*bounds, ptr, "rtol", true, 0, 1e6);
        auto atol = r.number(*bounds, ptr, "atol", true, 0, 1e6);
        if (rtol && atol) into.perDType[info.dtype] = {*rtol, *atol};
    }
    if (const json* criteria = r.array(tol, pointer, "criteria", false)) {
        for (std::size_t k = 0; k < criteria->size(); ++k) {
            const std::string ptr = SpecReader::child(pointer + "/criteria", k);
            if (!r.isType((*criteria)[k], ptr, json::value_t::string, "a criterion name")) continue;
            const auto name = (*criteria)[k].get<std::string>();
            if (std::find(kCriteria.begin(), kCriteria.end(), name) == kCriteria.end())
                r.error(ptr, "spec.unknown-criterion",
                        "unknown criterion \"" + name + "\"" + didYouMean(name, kCriteria) +
                            " (known: " + joinQuoted(kCriteria, "") + ")");
            else
                into.criteria.push_back(name);
        }
    }
    into.maxErrorRatio = r.number(tol, pointer, "max_error_ratio", false, 0, 1);
    into.minCosine = r.number(tol, pointer, "min_cosine", false, -1, 1);
}

namespace {

class Loader
{
public:
    Loader(const JsonDocument& doc, SpecLoadResult& out, std::string projectDir)
        : m_r(doc, out.diagnostics), m_spec(out.spec), m_projectDir(std::move(projectDir))
    {
    }

    void load(const json& root)
    {
        if (!m_r.isType(root, "", json::value_t::object, "the op description to be a JSON object"))
            return;
        m_r.checkKeys(root, "", kTopKeys);
        readHeader(root);
        m_spec.kernel = readSource(root, "kernel");
        m_spec.reference = readSource(root, "reference");
        const bool inputsRead = readInputs(root);
        const bool paramsRead = readParams(root);
        // Rules name inputs and parameters; without those lists every rule would report
        // unknown names, which only buries the real problem.
        const bool scopeKnown = inputsRead && paramsRead;
        readOutputs(root, scopeKnown);
        if (scopeKnown) readKernelArguments(root);
        readConstraints(root, scopeKnown);
        readTolerance(root);
        readTargets(root);
        if (auto seed = m_r.integer(root, "", "seed", false, 0, INT64_MAX))
            m_spec.seed = std::uint64_t(*seed);
        if (scopeKnown) loadCases(m_r, root, m_spec, m_projectDir);
    }

private:
    enum class NameKind
    {
        Identifier,
        OpType,
        Argument
    };
    void identifier(const json& obj, const std::string& ptr, const char* key, std::string& into,
                    NameKind kind = NameKind::Identifier)
    {
        auto s = m_r.string(obj, ptr, key, true);
        if (!s) return;
        const std::string why = kind == NameKind::OpType     ? checkOpTypeName(*s)
                                : kind == NameKind::Argument ? checkArgumentName(*s)
                                                             : checkIdentifier(*s);
        if (!why.empty()) m_r.error(SpecReader::child(ptr, key), "spec.bad-identifier", why);
        into = *s;
    }

    void readHeader(const json& root)
    {
        if (auto format = m_r.string(root, "", "format", true)) {
            m_spec.format = *format;
            if (*format != kOpFormat)
                m_r.error("/format", "spec.unsupported-format",
                          "unsupported format \"" + *format + "\"; this workbench reads \"" +
                              kOpFormat + "\"");
        }
        identifier(root, "", "name", m_spec.name);
        identifier(root, "", "namespace", m_spec.ns);
        identifier(root, "", "op_type", m_spec.opType, NameKind::OpType);
        m_spec.version = "0.1.0";
        if (auto version = m_r.string(root, "", "version", false)) {
            static const std::regex kSemver(
                R"(^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z.]{1,32})?$)");
            if (!std::regex_match(*version, kSemver))
                m_r.error("/version", "spec.bad-version",
                          "version \"" + *version +
                              "\" must look like 1.2.3 (optionally 1.2.3-rc1)");
            else
                m_spec.version = *version;
        }
        if (auto doc = m_r.string(root, "", "doc", false)) m_spec.doc = *doc;
    }

    SourceFileRef readSource(const json& root, const char* key)
    {
        SourceFileRef ref;
        const json* obj = m_r.object(root, "", key, true);
        if (!obj) return ref;
        const std::string ptr = std::string("/") + key;
        const bool kernel = std::string(key) == "kernel";
        if (kernel)
            m_r.checkKeys(*obj, ptr, {"file", "function", "arguments", "made_by", "made_with"});
        else
            m_r.checkKeys(*obj, ptr, {"file", "function"});
        if (kernel) ref.madeBy = readMadeBy(*obj, ptr);
        if (kernel) ref.madeWithJson = readMadeWith(m_r, *obj, ptr, ref.madeBy);
        auto file = m_r.string(*obj, ptr, "file", true);
        auto function = m_r.string(*obj, ptr, "function", true);
        if (function) {
            static const std::regex kPyName(R"(^[A-Za-z_][A-Za-z0-9_]{0,127}$)");
            // Only ever called from Python, and written into generated code as a string: a C++
            // keyword (`double`) is a fine name for it.
            if (!std::regex_match(*function, kPyName) || isPythonKeyword(*function))
                m_r.error(ptr + "/function", "spec.bad-identifier",
                          "\"" + *function + "\" is not a valid Python function name");
            else
                ref.function = *function;
        }
        if (file) {
            ref.file = *file;
            const std::string why = checkRelativePath(*file);
            if (!why.empty())
                m_r.error(ptr + "/file", "spec.bad-path", why);
            else if (!m_projectDir.empty())
                checkSourceFile(m_r, ptr, m_projectDir, ref);
        }
        return ref;
    }

    std::string readMadeBy(const json& kernel, const std::string& ptr)
    {
        auto madeBy = m_r.string(kernel, ptr, "made_by", false);
        if (!madeBy) return {};
        // NAME or Class.NAME, with an optional pytest case id in brackets.
        static const std::regex kMaker(
            R"(^[A-Za-z_][A-Za-z0-9_]{0,127}(\.[A-Za-z_][A-Za-z0-9_]{0,127})?(\[[^\]\n]{1,200}\])?$)");
        if (std::regex_match(*madeBy, kMaker)) return *madeBy;
        m_r.error(ptr + "/made_by", "spec.bad-identifier",
                  "\"" + *madeBy +
                      "\" does not name a function of the kernel file: write NAME, Class.NAME or "
                      "NAME[pytest case id]");
        return {};
    }

    void claimName(const std::string& name, const std::string& ptr, const std::string& what)
    {
        if (name.empty()) return;
        auto [it, inserted] = m_names.emplace(name, what);
        if (!inserted)
            m_r.error(ptr, "spec.duplicate-name",
                      "name '" + name + "' is already used by " + it->second +
                          "; inputs, outputs and parameters need distinct names");
    }

    std::string readName(const json& item, const std::string& ptr, const std::string& what)
    {
        std::string name;
        identifier(item, ptr, "name", name, NameKind::Argument);
        claimName(name, ptr + "/name", what + " '" + name + "'");
        return name;
    }

    bool readInputs(const json& root)
    {
        const json* items = m_r.array(root, "", "inputs", true);
        if (!items) return false;
        for (std::size_t k = 0; k < items->size(); ++k) {
            const std::string ptr = SpecReader::child("/inputs", k);
            const json& item = (*items)[k];
            if (!m_r.isType(item, ptr, json::value_t::object, "an input object")) continue;
            m_r.checkKeys(item, ptr, {"name", "dtypes", "rank", "mutated", "doc"});
            InputSpec in;
            in.name = readName(item, ptr, "input");
            if (const json* dtypes = m_r.array(item, ptr, "dtypes", true)) {
                if (dtypes->empty())
                    m_r.error(ptr + "/dtypes", "spec.empty",
                              "list at least one dtype the input accepts");
                for (std::size_t d = 0; d < dtypes->size(); ++d) {
                    const std::string dptr = SpecReader::child(ptr + "/dtypes", d);
                    if (!m_r.isType((*dtypes)[d], dptr, json::value_t::string, "a dtype name"))
                        continue;
                    const auto text = (*dtypes)[d].get<std::string>();
                    auto dtype = dtypeFromName(text);
                    if (!dtype) {
                        in.listsUnknownDtype = true;
                        m_r.error(dptr, "spec.unknown-dtype",
                                  "unknown dtype \"" + text + "\"" +
                                      didYouMean(text, dtypeNames()) +
                                      " (known: " + joinQuoted(dtypeNames(), "") + ")");
                    } else if (std::find(in.dtypes.begin(), in.dtypes.end(), *dtype) !=
                               in.dtypes.end())
                        m_r.warning(dptr, "spec.duplicate-dtype",
                                    "dtype \"" + text + "\" is listed twice");
                    else
                        in.dtypes.push_back(*dtype);
                }
            }
            if (auto rank = m_r.integer(item, ptr, "rank", false, 0, 16)) in.rank = int(*rank);
            if (const json* mutated = m_r.member(item, ptr, "mutated", false);
                mutated &&
                m_r.isType(*mutated, ptr + "/mutated", json::value_t::boolean, "true or false"))
                in.mutated = mutated->get<bool>();
            if (auto doc = m_r.string(item, ptr, "doc", false)) in.doc = *doc;
            m_spec.inputs.push_back(std::move(in));
        }
        return true;
    }

    bool readParams(const json& root)
    {
        const json* items = m_r.array(root, "", "parameters", false);
        if (!items) return !root.contains("parameters");
        for (std::size_t k = 0; k < items->size(); ++k) {
            const std::string ptr = SpecReader::child("/parameters", k);
            const json& item = (*items)[k];
            if (!m_r.isType(item, ptr, json::value_t::object, "a parameter object")) continue;
            m_r.checkKeys(item, ptr, {"name", "type", "default", "doc"});
            ParamSpec p;
            p.name = readName(item, ptr, "parameter");
            bool typeOk = false;
            if (auto type = m_r.string(item, ptr, "type", true)) {
                std::vector<std::string> names;
                for (const auto& t : allParamTypes())
                    names.emplace_back(t.name);
                if (auto t = paramTypeFromName(*type)) {
                    p.type = *t;
                    typeOk = true;
                } else {
                    m_r.error(ptr + "/type", "spec.unknown-type",
                              "unknown parameter type \"" + *type + "\"" +
                                  didYouMean(*type, names) + " (known: " + joinQuoted(names, "") +
                                  ")");
                }
            }
            if (const json* def = m_r.member(item, ptr, "default", false); def && typeOk) {
                auto value = paramValueFromJson(*def, p.type);
                if (auto* why = std::get_if<std::string>(&value))
                    m_r.error(ptr + "/default", "spec.bad-default",
                              "default of " + std::string(paramTypeInfo(p.type).name) +
                                  " parameter '" + p.name + "': " + *why);
                else
                    p.defaultValue = std::get<rules::Value>(value);
            }
            if (auto doc = m_r.string(item, ptr, "doc", false)) p.doc = *doc;
            m_spec.params.push_back(std::move(p));
        }
        return true;
    }

    // "kernel": {"arguments": {"NUM_ROWS": "x.shape[0]", "config": {"class": "C", "fields":
    // {...}}}}
    void readKernelArguments(const json& root)
    {
        const json* kernel =
            root.contains("kernel") && root["kernel"].is_object() ? &root["kernel"] : nullptr;
        const json* arguments =
            kernel ? m_r.object(*kernel, "/kernel", "arguments", false) : nullptr;
        if (!arguments) return;
        for (const auto& [name, value] : arguments->items()) {
            const std::string ptr = SpecReader::child("/kernel/arguments", name);
            KernelArgumentSpec a;
            a.name = name;
            if (const std::string why = checkArgumentName(name); !why.empty()) {
                m_r.error(ptr, "spec.bad-identifier", why);
                continue;
            }
            if (auto it = m_names.find(name); it != m_names.end()) {
                m_r.error(ptr, "spec.duplicate-name",
                          "kernel argument '" + name + "' is " + it->second +
                              " of the op, which binds to the kernel by name already");
                continue;
            }
            if (value.is_string()) {
                a.fields.push_back(
                    {"", value.get<std::string>(),
                     compileRule(ptr, value.get<std::string>(), std::nullopt, "kernel argument")});
            } else if (value.is_array() || (value.is_object() && value.contains("dict"))) {
                if (!readLiteral(ptr, value, a.fields.emplace_back())) continue;
            } else if (value.is_object()) {
                m_r.checkKeys(value, ptr, {"class", "fields"});
                if (auto cls = m_r.string(value, ptr, "class", true)) {
                    if (const std::string why = kernelArgumentClassProblem(*cls); !why.empty())
                        m_r.error(ptr + "/class", "spec.bad-identifier", why);
                    else
                        a.className = *cls;
                }
                if (const json* fields = m_r.object(value, ptr, "fields", false)) {
                    for (const auto& [field, rule] : fields->items()) {
                        const std::string fptr = SpecReader::child(ptr + "/fields", field);
                        if (const std::string why = checkArgumentName(field); !why.empty()) {
                            m_r.error(fptr, "spec.bad-identifier", why);
                            continue;
                        }
                        if (rule.is_array() || rule.is_object()) {
                            KernelArgumentSpec::Field f{field, "", std::nullopt, ""};
                            if (readLiteral(fptr, rule, f)) a.fields.push_back(std::move(f));
                            continue;
                        }
                        if (!m_r.isType(rule, fptr, json::value_t::string,
                                        "a rule giving the field's value, or a list or dict "
                                        "given as is"))
                            continue;
                        a.fields.push_back({field, rule.get<std::string>(),
                                            compileRule(fptr, rule.get<std::string>(), std::nullopt,
                                                        "kernel argument")});
                    }
                }
                if (a.className.empty()) continue;
            } else {
                m_r.error(ptr, "spec.wrong-type",
                          "kernel argument '" + name +
                              "' must be a rule (a string such as \"x.shape[0]\"), a list given as "
                              "is ([[128, 128], [64, 64]]), a dict ({\"dict\": [[2, 4]]}) or "
                              "{\"class\": ..., \"fields\": {...}}, not " +
                              jsonKindName(value));
                continue;
            }
            m_spec.kernelArguments.push_back(std::move(a));
        }
    }

    // A kernel argument's (or field's) literal JSON array or dict, kept as its compact text.
    bool readLiteral(const std::string& ptr, const json& value, KernelArgumentSpec::Field& field)
    {
        if (const std::string why = kernelArgumentLiteralProblem(value); !why.empty()) {
            m_r.error(ptr, "spec.wrong-type", why);
            return false;
        }
        field.literalJson = value.dump();
        return true;
    }

    // Compiles a rule string at `ptr`; errors point inside the string. Without `want`, any value
    // but a tensor will do (a kernel argument).
    std::optional<rules::Rule> compileRule(const std::string& ptr, const std::string& text,
                                           std::optional<rules::Type> want, const char* role)
    {
        if (!m_scopeKnown) return std::nullopt;
        auto compiled = rules::Rule::compile(text, m_spec.ruleScope());
        if (auto* errors = std::get_if<std::vector<rules::RuleError>>(&compiled)) {
            for (const auto& e : *errors)
                m_r.errorInString(ptr, e.span.begin, e.span.end, e.code, e.message);
            return std::nullopt;
        }
        rules::Rule rule = std::move(std::get<rules::Rule>(compiled));
        if (!want && rule.type() == rules::Type::Tensor) {
            m_r.errorInString(
                ptr, 0, text.size(), "rule.wrong-result",
                "a kernel argument is a value (a number, a shape, a dtype, ...), not a tensor; "
                "tensors bind to the kernel as inputs");
            return std::nullopt;
        }
        if (want && rule.type() != *want) {
            m_r.errorInString(ptr, 0, text.size(), "rule.wrong-result",
                              std::string("a ") + role + " rule must give " +
                                  rules::typeName(*want) + ", but this one gives " +
                                  rules::typeName(rule.type()));
            return std::nullopt;
        }
        return rule;
    }

    void readOutputs(const json& root, bool scopeKnown)
    {
        m_scopeKnown = scopeKnown;
        const json* items = m_r.array(root, "", "outputs", true);
        if (!items) return;
        // An op whose only result is an input it updates (a cache written by index_put_) has
        // none; any other op needs one, or it computes nothing a caller could see.
        if (items->empty() && m_spec.mutatedInputs().empty())
            m_r.error(
                "/outputs", "spec.empty",
                "an op needs at least one output, or an input it updates (\"mutated\": true)");
        for (std::size_t k = 0; k < items->size(); ++k) {
            const std::string ptr = SpecReader::child("/outputs", k);
            const json& item = (*items)[k];
            if (!m_r.isType(item, ptr, json::value_t::object, "an output object")) continue;
            m_r.checkKeys(item, ptr, {"name", "shape", "dtype", "init", "doc"});
            OutputSpec o;
            o.name = readName(item, ptr, "output");
            if (auto shape = m_r.string(item, ptr, "shape", true)) {
                o.shapeRule = *shape;
                o.shape = compileRule(ptr + "/shape", *shape, rules::Type::Shape, "shape");
            }
            if (auto dtype = m_r.string(item, ptr, "dtype", true)) {
                o.dtypeRule = *dtype;
                o.dtype = compileRule(ptr + "/dtype", *dtype, rules::Type::DType, "dtype");
            }
            if (auto doc = m_r.string(item, ptr, "doc", false)) o.doc = *doc;
            o.init = m_r.number(item, ptr, "init", false, -std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::max());
            m_spec.outputs.push_back(std::move(o));
        }
    }

    void readConstraints(const json& root, bool scopeKnown)
    {
        m_scopeKnown = scopeKnown;
        const json* items = m_r.array(root, "", "constraints", false);
        if (!items) return;
        for (std::size_t k = 0; k < items->size(); ++k) {
            const std::string ptr = SpecReader::child("/constraints", k);
            const json& item = (*items)[k];
            if (!m_r.isType(item, ptr, json::value_t::object, "a constraint object")) continue;
            m_r.checkKeys(item, ptr, {"check", "message"});
            ConstraintSpec c;
            if (auto check = m_r.string(item, ptr, "check", true)) {
                c.check = *check;
                c.rule = compileRule(ptr + "/check", *check, rules::Type::Bool, "constraint");
            }
            if (auto message = m_r.string(item, ptr, "message", false)) c.message = *message;
            m_spec.constraints.push_back(std::move(c));
        }
    }

    void readTolerance(const json& root)
    {
        if (const json* tol = m_r.object(root, "", "tolerance", false))
            readToleranceObject(m_r, *tol, "/tolerance", m_spec.tolerance);
    }

    void readTargets(const json& root)
    {
        const json* targets = m_r.object(root, "", "targets", false);
        if (!targets) return;
        m_r.checkKeys(*targets, "/targets", {"soc", "onnx_opset"});
        if (const json* socs = m_r.array(*targets, "/targets", "soc", false)) {
            static const std::regex kSoc(R"(^[A-Za-z][A-Za-z0-9_]{0,63}$)");
            for (std::size_t k = 0; k < socs->size(); ++k) {
                const std::string ptr = SpecReader::child("/targets/soc", k);
                if (!m_r.isType((*socs)[k], ptr, json::value_t::string, "a SoC name")) continue;
                const auto soc = (*socs)[k].get<std::string>();
                if (!std::regex_match(soc, kSoc))
                    m_r.error(ptr, "spec.bad-identifier",
                              "SoC name \"" + soc + "\" may only contain letters, digits and '_'");
                else
                    m_spec.targets.soc.push_back(soc);
            }
        }
        if (auto opset = m_r.integer(*targets, "/targets", "onnx_opset", false, 7, 21))
            m_spec.targets.onnxOpset = int(*opset);
    }

    SpecReader m_r;
    OpSpec& m_spec;
    std::string m_projectDir;
    std::map<std::string, std::string> m_names;
    bool m_scopeKnown = true;
};

} // namespace

SpecLoadResult loadOpSpecText(std::string text, const std::string& fileName,
                              const std::string& projectDir)
{
    SpecLoadResult result;
    const JsonDocument doc = JsonDocument::parse(std::move(text), fileName);
    result.diagnostics = doc.diagnostics();
    if (!doc.ok()) return result;
    Loader(doc, result, projectDir).load(doc.root());
    return result;
}

SpecLoadResult loadOpSpecFile(const std::string& path)
{
    SpecLoadResult result;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    auto ioError = [&](std::string message) {
        Diagnostic d;
        d.file = path;
        d.code = "io.read";
        d.message = std::move(message);
        result.diagnostics.push_back(std::move(d));
        return result;
    };
    if (ec) return ioError("cannot read the op description: " + ec.message());
    if (size > JsonDocument::kMaxBytes)
        return ioError("file is " + std::to_string(size) +
                       " bytes; an op description may be at most " +
                       std::to_string(JsonDocument::kMaxBytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in) return ioError("cannot open the op description for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return loadOpSpecText(buffer.str(), path, dir.empty() ? "." : dir);
}

} // namespace ptowb
