// kernel.arguments and kernel.made_with from the recorded calls: rules for dims and dtypes, the
// dataclass configs and nested lists the first call passed, and which calls run the kernel in
// another configuration than that one (no cases of the op).
#include "importer/import_builder.h"
#include "importer/recording_json.h"

#include <algorithm>
#include <filesystem>

namespace ptowb::importer {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

std::string shortValue(const json& described)
{
    std::string value = member(described, "value").dump();
    if (value.size() > 40) value = value.substr(0, 37) + "...";
    return value;
}

} // namespace

// What makes `call` run the kernel otherwise than `first` does, which no case can say: another
// nested list given as is, or a dataclass config of another class or with another value in a
// field no rule gives (a str, a float, a bool, a list: `activation="relu"`). Empty when the two
// agree there.
std::string Builder::otherConfiguration(const json& call, const json& first) const
{
    for (const auto& param : list(*m_kernel, "params")) {
        const std::string name = text(param, "name");
        const json* given = argument(call, name);
        const json* kept = argument(first, name);
        if (!given || !kept || text(*kept, "kind") != text(*given, "kind")) continue;
        if (text(*kept, "kind") == "literal" && member(*given, "value") != member(*kept, "value"))
            return "'" + name + "' is " + shortValue(*given) + ", not " + shortValue(*kept);
        if (text(*kept, "kind") != "config") continue;
        if (text(*given, "class") != text(*kept, "class"))
            return "'" + name + "' is a " + text(*given, "class") + ", not a " +
                   text(*kept, "class");
        const json& fields = member(*kept, "fields");
        for (auto it = fields.begin(); fields.is_object() && it != fields.end(); ++it) {
            const std::string kind = text(it.value(), "kind");
            // Rules over the inputs give these, or leaveOutUnruledFields leaves the call out.
            if (kind == "int" || kind == "dtype") continue;
            const json& other = fieldOf(given, it.key());
            if (member(other, "value") != member(it.value(), "value"))
                return "the " + text(*kept, "class") + " field '" + it.key() + "' is " +
                       shortValue(other) + ", not " + shortValue(it.value());
        }
    }
    return "";
}

void Builder::leaveOut(const json& call, const std::string& why)
{
    if (m_otherConfigurations++ == 0) m_firstOther = text(call, "entry") + ": " + why;
}

// A tile size the file tunes per case (`g_tile` 12 for one head count, 6 for another) follows
// no rule over the inputs; op.json gives every case the config of the first call that passed
// one, with which the other calls' shapes may not even run, so the calls with another value in
// an int or dtype field that no rule gives are other configurations too. A call that passed no
// config, or whose config lacks the field, is compared with nothing.
bool Builder::leaveOutUnruledFields()
{
    const auto calls = recordedCalls();
    std::vector<bool> leftOut(m_calls.size(), false);
    for (const Plan& p : m_plans) {
        if (p.role != Role::Config) continue;
        const auto firstGiven = std::find_if(p.values.begin(), p.values.end(),
                                             [](const json* v) { return v != nullptr; });
        if (firstGiven == p.values.end() || !member(**firstGiven, "fields").is_object()) continue;
        const json& first = **firstGiven;
        for (const auto& [field, described] : member(first, "fields").items()) {
            const std::string kind = text(described, "kind");
            if (kind != "int" && kind != "dtype") continue;
            const json& kept = member(described, "value");
            std::vector<json> values; // per call, the first call's where it gave none
            for (const json* v : p.values) {
                const json& value = member(fieldOf(v, field), "value");
                values.push_back(value.is_null() ? kept : value);
            }
            if (std::all_of(values.begin(), values.end(), [&](const json& v) { return v == kept; }))
                continue;
            bool ruled = false;
            if (kind == "int") {
                std::vector<std::int64_t> ints;
                for (const json& v : values)
                    ints.push_back(v.is_number_integer() ? v.get<std::int64_t>() : 0);
                ruled = inferDimRule(calls, ints).has_value();
            } else {
                std::vector<std::string> dtypes;
                for (const json& v : values)
                    dtypes.push_back(v.is_string() ? v.get<std::string>() : "");
                ruled = inferDtypeRule(calls, dtypes).has_value();
            }
            if (ruled) continue;
            for (std::size_t k = 0; k < values.size(); ++k)
                if (values[k] != kept && !leftOut[k]) {
                    leftOut[k] = true;
                    leaveOut(*m_calls[k].second,
                             "the " + text(first, "class") + " field '" + field + "' is " +
                                 shortValue(fieldOf(p.values[k], field)) + ", not " +
                                 shortValue(described) + ", which no rule over the inputs gives");
                }
        }
    }
    bool any = false;
    for (std::size_t k = m_calls.size(); k-- > 0;)
        if (leftOut[k]) {
            m_calls.erase(m_calls.begin() + std::ptrdiff_t(k));
            any = true;
        }
    return any;
}

void Builder::reportKeptCalls()
{
    if (m_otherConfigurations > 0)
        fillIn(
            "/cases", Severity::Warning, "import.other-configuration",
            std::to_string(m_otherConfigurations) +
                " recorded call(s) run the kernel in another configuration (" + m_firstOther +
                ") and are left out: kernel.arguments gives every case the configuration of the "
                "first call, " +
                (m_calls.empty() ? std::string("none") : text(*m_calls.front().second, "entry")));
    for (const auto& [index, call] : m_calls)
        if (const json& e = member(*call, "error"); e.is_object())
            fillIn("/cases", Severity::Warning, "import.kernel-failed",
                   "the call from " + text(*call, "entry") + " failed in the simulator at " +
                       std::filesystem::path(m_kernelFile).filename().string() + ":" +
                       std::to_string(number(e, "line", 1)) + ": " + text(e, "message"));
}

// The arguments the factory that made the kernel was called with (kernel.made_with): a rule
// giving each constant, or nested lists as they are.
void Builder::describeMadeWith(ojson& op)
{
    const json& given = member(*m_kernel, "made_with");
    if (!given.is_object()) return;
    // A constant as op.json spells it; nullopt when it has no spelling.
    auto constant = [](const json& described) -> std::optional<ojson> {
        if (text(described, "kind") == "literal") return ojson(member(described, "value"));
        if (text(described, "kind") == "none") return ojson(nullptr);
        if (auto rule = literal(described)) return ojson(*rule);
        return std::nullopt;
    };
    ojson with = ojson::object();
    for (const auto& [name, described] : given.items()) {
        std::optional<ojson> value;
        if (text(described, "kind") == "config") {
            // The fields that differ from the class's defaults; the others it gives itself.
            ojson fields = ojson::object();
            for (const auto& [field, d] : member(described, "fields").items())
                if (auto v = constant(d)) fields[field] = *v;
            value = ojson{{"class", text(described, "class")}, {"fields", fields}};
        } else {
            value = constant(described);
        }
        if (value) {
            with[name] = *value;
        } else {
            with[name] = "";
            fillIn("/kernel/made_with/" + name, Severity::Error, "import.argument",
                   text(*m_kernel, "made_by") + "'s argument '" + name +
                       "' holds a value op.json cannot write: give it as a rule");
        }
    }
    op["kernel"]["made_with"] = with;
    m_p.inferred.push_back("kernel.made_with: the arguments " + text(*m_kernel, "made_by") +
                           " was called with");
}

void Builder::describeArguments(ojson& op)
{
    const auto calls = recordedCalls();
    ojson arguments = ojson::object();
    for (const Plan& p : m_plans) {
        const json* given = nullptr; // the first call's value
        for (const json* v : p.values)
            if (v && !given) given = v;
        if (p.role == Role::Argument && given && text(*given, "kind") == "literal") {
            // Nested lists, given as is (no rule gives them), as the first call passed them.
            // (Calls that give it another value are no cases: keepCalls left them out.)
            arguments[p.name] = ojson(member(*given, "value"));
        } else if (p.role == Role::Argument) {
            std::vector<std::string> dtypes;
            for (const json* v : p.values)
                dtypes.push_back(v ? text(*v, "value") : "");
            auto rule = inferDtypeRule(calls, dtypes);
            arguments[p.name] = rule ? *rule : dtypes.front();
        } else if (p.role == Role::Config) {
            const json* firstValue = nullptr;
            for (const json* v : p.values)
                if (v && !firstValue) firstValue = v;
            const json& first = *firstValue;
            ojson fields = ojson::object();
            const json recordedFields =
                member(first, "fields").is_object() ? member(first, "fields") : json::object();
            for (const auto& [field, described] : recordedFields.items()) {
                bool varies = false, isDefault = true;
                for (const json* v : p.values) {
                    const json& f = fieldOf(v, field);
                    varies = varies || member(f, "value") != member(described, "value");
                    isDefault = isDefault && member(f, "default") == true;
                }
                if (isDefault) continue;
                const std::string kind = text(described, "kind");
                if (kind == "dtype") {
                    std::vector<std::string> dtypes;
                    for (const json* v : p.values)
                        dtypes.push_back(text(fieldOf(v, field), "value"));
                    auto rule = inferDtypeRule(calls, dtypes);
                    fields[field] = rule ? *rule : dtypes.front();
                    continue;
                }
                if (varies && kind == "int") {
                    std::vector<std::int64_t> values;
                    for (const json* v : p.values) {
                        const json& f = fieldOf(v, field);
                        values.push_back(member(f, "value").is_number_integer()
                                             ? member(f, "value").get<std::int64_t>()
                                             : 0);
                    }
                    if (auto rule = inferDimRule(calls, values)) {
                        fields[field] = *rule;
                        continue;
                    }
                }
                // A rule, or nested lists given as is (which no rule gives).
                ojson value;
                if (kind == "literal")
                    value = ojson(member(described, "value"));
                else if (auto rule = literal(described))
                    value = *rule;
                else {
                    // An enum member (ReLuType.NO_RELU) is named; other values by their type.
                    const std::string held = kind == "enum"
                                                 ? "the enum member " + text(described, "value")
                                                 : "a " + text(described, "type") + " value";
                    // Left out of kernel.arguments, the field takes its default.
                    fillIn("/kernel/arguments/" + p.name, Severity::Error, "import.argument",
                           "field '" + field + "' of " + text(first, "class") + " holds " + held +
                               " in the recorded calls, which op.json cannot describe: make it "
                               "the field's default in " +
                               text(first, "class") + " (kernel.arguments leaves it out)");
                    continue;
                }
                fields[field] = std::move(value);
            }
            arguments[p.name] = ojson{{"class", text(first, "class")}, {"fields", fields}};
            // As the worker finds classes: in the kernel file or a module in its folder, or
            // in a folder below it (_ops/config.py).
            const std::string folder =
                std::filesystem::path(m_kernelFile).parent_path().string() + "/";
            if (text(first, "module").empty() || text(first, "module").rfind(folder, 0) != 0)
                fillIn("/kernel/arguments/" + p.name, Severity::Error, "import.argument",
                       "kernel parameter '" + p.name + "' takes a " + text(first, "class") +
                           ", which is defined outside the kernel's folder: op.json's classes come "
                           "from the kernel file or a module in its folder");
        }
    }
    if (!arguments.empty()) op["kernel"]["arguments"] = arguments;
}

} // namespace ptowb::importer
