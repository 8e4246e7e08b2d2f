#include "spec/case_loader.h"

#include "diag/suggest.h"
#include "rules/shape_functions.h"
#include "spec/fill_spec.h"
#include "spec/inference.h"
#include "spec/source_check.h"
#include "spec/spec_reader.h"
#include "types/shape.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

namespace ptowb {
namespace {

using json = nlohmann::json;

class CaseLoader
{
public:
    CaseLoader(SpecReader& r, OpSpec& spec, std::string projectDir)
        : m_r(r), m_spec(spec), m_projectDir(std::move(projectDir))
    {
    }

    void load(const json& root)
    {
        if (!root.contains("cases")) {
            m_r.warning("", "spec.no-cases",
                        "the op has no \"cases\"; add one so it can be verified");
            return;
        }
        const json* items = m_r.array(root, "", "cases", false);
        if (!items) return;
        if (items->empty())
            m_r.warning("/cases", "spec.no-cases",
                        "the op has no test cases; add one so it can be verified");
        for (std::size_t k = 0; k < items->size(); ++k)
            loadCase((*items)[k], SpecReader::child("/cases", k));
    }

private:
    std::vector<std::string> inputNames() const
    {
        std::vector<std::string> names;
        for (const auto& in : m_spec.inputs)
            names.push_back(in.name);
        return names;
    }

    std::vector<std::string> paramNames() const
    {
        std::vector<std::string> names;
        for (const auto& p : m_spec.params)
            names.push_back(p.name);
        return names;
    }

    void loadCase(const json& item, const std::string& ptr)
    {
        if (!m_r.isType(item, ptr, json::value_t::object, "a case object")) return;
        m_r.checkKeys(item, ptr, {"name", "inputs", "parameters", "expected", "doc"});
        CaseSpec c;
        bool ok = true;
        if (auto name = m_r.string(item, ptr, "name", true)) {
            static const std::regex kCaseName(R"(^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$)");
            if (!std::regex_match(*name, kCaseName)) {
                m_r.error(ptr + "/name", "spec.bad-identifier",
                          "case name \"" + *name +
                              "\" may only contain letters, digits, '_', '.' and '-' (it names a "
                              "folder)");
                ok = false;
            } else if (!m_caseNames.insert(*name).second) {
                m_r.error(ptr + "/name", "spec.duplicate-name",
                          "another case is already named \"" + *name + "\"");
                ok = false;
            }
            c.name = *name;
        } else {
            ok = false;
        }
        const std::string label = "case '" + c.name + "'";
        ok = loadInputs(item, ptr, label, c) && ok;
        std::map<std::string, rules::Value> given;
        ok = loadParams(item, ptr, given) && ok;
        ok = loadExpected(item, ptr, label, c) && ok;
        if (!ok || !specIsComplete()) return;

        auto params = resolveParams(m_spec, given);
        if (auto* e = std::get_if<InferenceError>(&params)) {
            m_r.error(item.contains("parameters") ? ptr + "/parameters" : ptr, "spec.case-param",
                      label + ": " + e->message);
            return;
        }
        c.params = std::get<std::vector<rules::Value>>(params);
        std::vector<rules::TensorInfo> tensors;
        for (const auto& in : c.inputs)
            tensors.push_back({in.shape, in.dtype});
        auto outputs = inferOutputs(m_spec, tensors, c.params);
        if (auto* e = std::get_if<InferenceError>(&outputs)) {
            const bool constraint = e->where == InferenceError::Where::Constraint && !e->ruleError;
            m_r.error(ptr, constraint ? "spec.case-constraint" : "spec.case-rule",
                      label + (constraint ? " violates a constraint: " : ": ") + e->message);
            return;
        }
        // Running the case allocates its outputs: the same bound as its inputs, before any run.
        for (const InferredOutput& o : std::get<std::vector<InferredOutput>>(outputs)) {
            const std::int64_t elements = elementCount(o.shape);
            if (elements < 0 || elements > kMaxCaseElements) {
                m_r.error(ptr, "spec.too-large",
                          label + ": output '" + o.name + "' would have shape " +
                              shapefn::toString(o.shape) + ", more than 2^31 elements");
                return;
            }
        }
        m_spec.cases.push_back(std::move(c));
    }

    // Generation needs every rule compiled; a case is only checked against a sound spec.
    bool specIsComplete() const
    {
        for (const auto& o : m_spec.outputs)
            if (!o.shape || !o.dtype) return false;
        for (const auto& c : m_spec.constraints)
            if (!c.rule) return false;
        for (const auto& in : m_spec.inputs)
            if (in.dtypes.empty()) return false;
        return true;
    }

    bool loadInputs(const json& item, const std::string& ptr, const std::string& label, CaseSpec& c)
    {
        const json* inputs = m_r.object(item, ptr, "inputs", !m_spec.inputs.empty());
        if (!inputs) return m_spec.inputs.empty();
        const std::string iptr = ptr + "/inputs";
        bool ok = true;
        for (const auto& [key, value] : inputs->items())
            if (m_spec.inputIndex(key) < 0) {
                m_r.error(SpecReader::child(iptr, key), "spec.unknown-input",
                          label + " gives an unknown input \"" + key + "\"" +
                              didYouMean(key, inputNames()) +
                              " (inputs: " + joinQuoted(inputNames()) + ")",
                          true);
                ok = false;
            }
        for (const auto& in : m_spec.inputs) {
            auto it = inputs->find(in.name);
            if (it == inputs->end()) {
                m_r.error(iptr, "spec.missing-input",
                          label + " gives no value for input '" + in.name + "'");
                ok = false;
                continue;
            }
            CaseInputSpec ci;
            ok = loadInput(*it, SpecReader::child(iptr, in.name), in, ci) && ok;
            c.inputs.push_back(std::move(ci));
        }
        return ok;
    }

    bool loadInput(const json& value, const std::string& ptr, const InputSpec& in,
                   CaseInputSpec& ci)
    {
        if (!m_r.isType(value, ptr, json::value_t::object,
                        "an object with \"shape\", \"dtype\" and \"fill\""))
            return false;
        m_r.checkKeys(value, ptr, {"shape", "dtype", "fill"});
        bool ok = true;
        if (const json* shape = m_r.array(value, ptr, "shape", true)) {
            std::int64_t elements = 1;
            for (std::size_t d = 0; d < shape->size(); ++d) {
                const json& dim = (*shape)[d];
                const std::string dptr = SpecReader::child(ptr + "/shape", d);
                if (!dim.is_number_integer() ||
                    (dim.is_number_unsigned() &&
                     dim.get<std::uint64_t>() > std::uint64_t(kMaxCaseElements)) ||
                    dim.get<std::int64_t>() < 0) {
                    m_r.error(dptr, "spec.bad-shape",
                              "a dim must be a non-negative integer, got " + dim.dump());
                    ok = false;
                    continue;
                }
                ci.shape.push_back(dim.get<std::int64_t>());
                if (__builtin_mul_overflow(elements, ci.shape.back(), &elements) ||
                    elements > kMaxCaseElements)
                    elements = -1;
            }
            if (ok && elements < 0) {
                m_r.error(ptr + "/shape", "spec.too-large",
                          "shape " + shapefn::toString(ci.shape) + " has more than 2^31 elements");
                ok = false;
            }
            if (ok && in.rank && int(ci.shape.size()) != *in.rank) {
                m_r.error(ptr + "/shape", "spec.rank-mismatch",
                          "input '" + in.name + "' has rank " + std::to_string(*in.rank) +
                              ", but this shape has rank " + std::to_string(ci.shape.size()));
                ok = false;
            }
        } else {
            ok = false;
        }
        ci.dtype = in.dtypes.empty() ? DType::Float32 : in.dtypes.front();
        if (auto dtype = m_r.string(value, ptr, "dtype", false)) {
            std::vector<std::string> allowed;
            for (DType d : in.dtypes)
                allowed.emplace_back(dtypeName(d));
            auto d = dtypeFromName(*dtype);
            if (d && in.listsUnknownDtype &&
                std::find(in.dtypes.begin(), in.dtypes.end(), *d) == in.dtypes.end()) {
                ok = false; // the typo in the input's dtypes is the error
            } else if (!d || std::find(in.dtypes.begin(), in.dtypes.end(), *d) == in.dtypes.end()) {
                m_r.error(ptr + "/dtype", d ? "spec.dtype-not-allowed" : "spec.unknown-dtype",
                          "input '" + in.name + "' accepts " + joinQuoted(allowed, "") +
                              ", not \"" + *dtype + "\"" + didYouMean(*dtype, allowed));
                ok = false;
            } else {
                ci.dtype = *d;
            }
        }
        ci.fill = defaultFill(ci.dtype);
        if (auto fill = m_r.string(value, ptr, "fill", false)) {
            auto parsed = parseFillSpec(*fill);
            if (auto* why = std::get_if<std::string>(&parsed)) {
                m_r.error(ptr + "/fill", "spec.bad-fill", *why);
                ok = false;
            } else {
                ci.fill = std::get<FillSpec>(parsed);
                if (ci.fill.kind == FillSpec::Kind::File && !m_projectDir.empty()) {
                    std::error_code ec;
                    if (!std::filesystem::is_regular_file(
                            std::filesystem::path(m_projectDir) / ci.fill.path, ec)) {
                        m_r.error(ptr + "/fill", "spec.missing-file",
                                  "fill file \"" + ci.fill.path +
                                      "\" does not exist in the project folder");
                        ok = false;
                    }
                }
            }
        }
        return ok;
    }

    // "expected": {"<result>": "file:<path>.npy" | null}: the values a test recorded for the
    // results; null for a result the test checked no value of.
    bool loadExpected(const json& item, const std::string& ptr, const std::string& label,
                      CaseSpec& c)
    {
        const json* expected = m_r.object(item, ptr, "expected", false);
        if (!expected) return !item.contains("expected");
        const std::string eptr = ptr + "/expected";
        const std::vector<std::string> results = m_spec.resultNames();
        bool ok = true;
        for (const auto& [key, value] : expected->items()) {
            const std::string vptr = SpecReader::child(eptr, key);
            if (std::find(results.begin(), results.end(), key) == results.end()) {
                m_r.error(vptr, "spec.unknown-output",
                          label + " gives an expected value for \"" + key +
                              "\", which is no output or mutated input" + didYouMean(key, results) +
                              " (results: " + joinQuoted(results) + ")",
                          true);
                ok = false;
                continue;
            }
            // null: the test checked no value of this result, so verify does not compare it.
            if (value.is_null()) {
                c.unchecked.insert(key);
                continue;
            }
            if (!m_r.isType(value, vptr, json::value_t::string, "\"file:<path>.npy\" or null")) {
                ok = false;
                continue;
            }
            // The same form as a file fill, and the same checks.
            auto parsed = parseFillSpec(value.get<std::string>());
            const FillSpec* file = std::get_if<FillSpec>(&parsed);
            if (!file || file->kind != FillSpec::Kind::File) {
                std::string why = "an expected value is a .npy file of the project, e.g. "
                                  "\"file:cases/a/y.npy\"";
                if (!file && value.get<std::string>().find("file:") != std::string::npos)
                    why = std::get<std::string>(parsed);
                m_r.error(vptr, "spec.bad-expected", why);
                ok = false;
                continue;
            }
            if (!m_projectDir.empty()) {
                std::error_code ec;
                if (!std::filesystem::is_regular_file(
                        std::filesystem::path(m_projectDir) / file->path, ec)) {
                    m_r.error(vptr, "spec.missing-file",
                              "expected file \"" + file->path +
                                  "\" does not exist in the project folder");
                    ok = false;
                    continue;
                }
            }
            c.expected[key] = file->path;
        }
        // A case that leaves every result unchecked would verify without comparing anything.
        if (ok && !c.unchecked.empty() && c.unchecked.size() == results.size()) {
            m_r.error(eptr, "spec.bad-expected",
                      label + " checks none of its results (each is null in \"expected\"): give "
                              "one its expected value, or leave \"expected\" out");
            ok = false;
        }
        return ok;
    }

    bool loadParams(const json& item, const std::string& ptr,
                    std::map<std::string, rules::Value>& given)
    {
        const json* params = m_r.object(item, ptr, "parameters", false);
        if (!params) return !item.contains("parameters");
        bool ok = true;
        for (const auto& [key, value] : params->items()) {
            const std::string pptr = SpecReader::child(ptr + "/parameters", key);
            const int index = m_spec.paramIndex(key);
            if (index < 0) {
                m_r.error(pptr, "spec.unknown-param",
                          "unknown parameter \"" + key + "\"" + didYouMean(key, paramNames()) +
                              (m_spec.params.empty()
                                   ? " (the op has no parameters)"
                                   : " (parameters: " + joinQuoted(paramNames()) + ")"),
                          true);
                ok = false;
                continue;
            }
            const ParamSpec& p = m_spec.params[std::size_t(index)];
            auto v = paramValueFromJson(value, p.type);
            if (auto* why = std::get_if<std::string>(&v)) {
                m_r.error(pptr, "spec.bad-param",
                          "parameter '" + key + "' is " + std::string(paramTypeInfo(p.type).name) +
                              ": " + *why);
                ok = false;
            } else {
                given[key] = std::get<rules::Value>(v);
            }
        }
        return ok;
    }

    SpecReader& m_r;
    OpSpec& m_spec;
    std::string m_projectDir;
    std::set<std::string> m_caseNames;
};

} // namespace

void loadCases(SpecReader& reader, const nlohmann::json& root, OpSpec& spec,
               const std::string& projectDir)
{
    CaseLoader(reader, spec, projectDir).load(root);
}

} // namespace ptowb
