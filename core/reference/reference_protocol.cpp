#include "reference/reference_checker.h"

#include <nlohmann/json.hpp>

namespace ptowb {

namespace {

using nlohmann::json;

std::optional<Severity> severityFrom(const std::string& name)
{
    for (Severity s : {Severity::Error, Severity::Warning, Severity::Note})
        if (name == severityName(s)) return s;
    return std::nullopt;
}

std::string dump(const json& j)
{
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool isString(const json& j, const char* key)
{
    return j.contains(key) && j.at(key).is_string();
}

} // namespace

std::string referenceCheckRequest(const OpSpec& spec, const std::string& source)
{
    json inputs = json::array(), params = json::array(), outputs = json::array();
    for (const InputSpec& in : spec.inputs)
        inputs.push_back({{"name", in.name}, {"mutated", in.mutated}});
    for (const ParamSpec& p : spec.params)
        params.push_back({{"name", p.name}, {"type", std::string(paramTypeInfo(p.type).name)}});
    for (const OutputSpec& out : spec.outputs)
        outputs.push_back(out.name);
    // The source follows the header line as it is: JSON would have to replace bytes that are
    // not UTF-8, and the checker must compile exactly what the workbench checked.
    return dump({{"function", spec.reference.function},
                 {"inputs", inputs},
                 {"params", params},
                 {"outputs", outputs}}) +
           "\n" + source;
}

std::variant<ReferenceCheckRequest, std::string> parseReferenceCheckRequest(const std::string& text)
{
    const std::size_t newline = text.find('\n');
    if (newline == std::string::npos) return std::string("the request has no header line");
    const json j = json::parse(text.substr(0, newline), nullptr, false);
    if (!j.is_object() || !isString(j, "function"))
        return std::string("the request's header is not an object with a function");
    ReferenceCheckRequest request;
    request.spec.reference.function = j.at("function").get<std::string>();
    request.source = text.substr(newline + 1);
    for (const char* key : {"inputs", "params", "outputs"})
        if (!j.contains(key) || !j.at(key).is_array())
            return "the request has no list of " + std::string(key);
    for (const json& in : j.at("inputs")) {
        if (!in.is_object() || !isString(in, "name")) return std::string("an input has no name");
        InputSpec spec;
        spec.name = in.at("name").get<std::string>();
        const json mutated = in.value("mutated", json(false));
        spec.mutated = mutated.is_boolean() && mutated.get<bool>();
        request.spec.inputs.push_back(std::move(spec));
    }
    for (const json& p : j.at("params")) {
        if (!p.is_object() || !isString(p, "name") || !isString(p, "type"))
            return std::string("a parameter has no name or type");
        const auto type = paramTypeFromName(p.at("type").get<std::string>());
        if (!type) return "unknown parameter type " + p.at("type").get<std::string>();
        ParamSpec spec;
        spec.name = p.at("name").get<std::string>();
        spec.type = *type;
        request.spec.params.push_back(std::move(spec));
    }
    for (const json& out : j.at("outputs")) {
        if (!out.is_string()) return std::string("an output has no name");
        OutputSpec spec;
        spec.name = out.get<std::string>();
        request.spec.outputs.push_back(std::move(spec));
    }
    return request;
}

std::string referenceCheckAnswer(const Diagnostics& diagnostics)
{
    json list = json::array();
    for (const Diagnostic& d : diagnostics)
        list.push_back(json{{"line", d.line},
                            {"col", d.col},
                            {"end_line", d.endLine},
                            {"end_col", d.endCol},
                            {"severity", severityName(d.severity)},
                            {"code", d.code},
                            {"message", d.message}});
    return dump({{"diagnostics", list}});
}

std::optional<Diagnostics> parseReferenceCheckAnswer(const std::string& text,
                                                     const std::string& fileName)
{
    const json j = json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("diagnostics") || !j.at("diagnostics").is_array())
        return std::nullopt;
    Diagnostics out;
    for (const json& item : j.at("diagnostics")) {
        if (!item.is_object() || !isString(item, "code") || !isString(item, "message") ||
            !isString(item, "severity"))
            return std::nullopt;
        const auto severity = severityFrom(item.at("severity").get<std::string>());
        if (!severity) return std::nullopt;
        Diagnostic d;
        d.file = fileName;
        d.severity = *severity;
        d.code = item.at("code").get<std::string>();
        d.message = item.at("message").get<std::string>();
        int* places[] = {&d.line, &d.col, &d.endLine, &d.endCol};
        const char* keys[] = {"line", "col", "end_line", "end_col"};
        for (int k = 0; k < 4; ++k) {
            const json& value = item.value(keys[k], json(1));
            // A place in a file of at most a few MiB (0: an end not given); 1 where it is not.
            *places[k] = value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
                                 value.get<std::int64_t>() <= (std::int64_t(1) << 30)
                             ? int(value.get<std::int64_t>())
                             : 1;
        }
        out.push_back(std::move(d));
    }
    return out;
}

} // namespace ptowb
