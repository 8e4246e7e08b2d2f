#include "spec/made_with.h"

#include "spec/identifiers.h"
#include "spec/kernel_arguments.h"
#include "spec/op_spec.h"

#include <optional>

namespace ptowb {

namespace {

// A rule over no input or parameter, evaluated; errors point inside the string.
std::optional<rules::Value> constantRule(SpecReader& reader, const std::string& pointer,
                                         const std::string& text)
{
    auto compiled = rules::Rule::compile(text, rules::RuleScope{});
    if (auto* errors = std::get_if<std::vector<rules::RuleError>>(&compiled)) {
        for (const auto& e : *errors)
            reader.errorInString(pointer, e.span.begin, e.span.end, e.code,
                                 e.code != "rule.unknown-name"
                                     ? e.message
                                     : e.message + " (made_with is given before any case: it "
                                                   "names no input or parameter)");
        return std::nullopt;
    }
    auto value = std::get<rules::Rule>(compiled).evaluate(rules::RuleBindings{});
    if (auto* e = std::get_if<rules::RuleError>(&value)) {
        reader.errorInString(pointer, 0, text.size(), e->code, e->message);
        return std::nullopt;
    }
    return std::get<rules::Value>(value);
}

// One constant argument or field: a rule, a list or dict given as is, or null; nullopt (reported)
// when it is none of those.
std::optional<nlohmann::json> constantValue(SpecReader& reader, const std::string& pointer,
                                            const nlohmann::json& value)
{
    if (value.is_array() || (value.is_object() && value.contains("dict"))) {
        if (const std::string why = kernelArgumentLiteralProblem(value); !why.empty()) {
            reader.error(pointer, "spec.wrong-type", why);
            return std::nullopt;
        }
        return value;
    }
    if (value.is_null()) return nlohmann::json(); // None: a factory's "use the default tiles"
    if (!value.is_string()) {
        reader.error(pointer, "spec.wrong-type",
                     std::string("a made_with value is a rule giving a constant (\"float16\", "
                                 "\"'fp16'\", \"[64, 64]\"), a list or dict given as is "
                                 "({\"dict\": [[2, 4]]}), a config {\"class\": ..., \"fields\": "
                                 "{...}} or null, not ") +
                         jsonKindName(value));
        return std::nullopt;
    }
    if (auto v = constantRule(reader, pointer, value.get<std::string>()))
        return kernelArgumentValueJson(*v);
    return std::nullopt;
}

// {"class": "BSAConfig", "fields": {"head_dim": "64"}}: an instance of a class of the kernel file
// built from the fields given (the others keep the class's defaults), as kernel.arguments has it.
std::optional<nlohmann::json> configValue(SpecReader& reader, const std::string& pointer,
                                          const nlohmann::json& value)
{
    reader.checkKeys(value, pointer, {"class", "fields"});
    auto cls = reader.string(value, pointer, "class", true);
    if (!cls) return std::nullopt;
    if (const std::string why = kernelArgumentClassProblem(*cls); !why.empty()) {
        reader.error(pointer + "/class", "spec.bad-identifier", why);
        return std::nullopt;
    }
    nlohmann::json fields = nlohmann::json::object();
    if (const nlohmann::json* given = reader.object(value, pointer, "fields", false)) {
        for (const auto& [field, rule] : given->items()) {
            const std::string fieldPointer = SpecReader::child(pointer + "/fields", field);
            if (const std::string why = checkArgumentName(field); !why.empty())
                reader.error(fieldPointer, "spec.bad-identifier", why);
            else if (auto v = constantValue(reader, fieldPointer, rule))
                fields[field] = *v;
        }
    }
    return nlohmann::json{{"class", *cls}, {"fields", std::move(fields)}};
}

} // namespace

std::string readMadeWith(SpecReader& reader, const nlohmann::json& kernel,
                         const std::string& pointer, const std::string& madeBy)
{
    const nlohmann::json* with = reader.object(kernel, pointer, "made_with", false);
    if (!with) return {};
    const std::string withPointer = pointer + "/made_with";
    if (madeBy.empty() || madeBy == kMainBlockMaker) {
        reader.error(withPointer, "spec.made-with-without-maker",
                     "kernel.made_with gives the arguments of the function kernel.made_by names, "
                     "and there is none");
        return {};
    }
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [name, value] : with->items()) {
        const std::string valuePointer = SpecReader::child(withPointer, name);
        if (const std::string why = checkArgumentName(name); !why.empty()) {
            reader.error(valuePointer, "spec.bad-identifier", why);
        } else if (value.is_object() && value.contains("class")) {
            if (auto config = configValue(reader, valuePointer, value)) values[name] = *config;
        } else if (auto v = constantValue(reader, valuePointer, value)) {
            values[name] = *v;
        }
    }
    return values.dump();
}

} // namespace ptowb
