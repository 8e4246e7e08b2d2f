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
        } else if (value.is_array() || (value.is_object() && value.contains("dict"))) {
            if (const std::string why = kernelArgumentLiteralProblem(value); !why.empty())
                reader.error(valuePointer, "spec.wrong-type", why);
            else
                values[name] = value;
        } else if (value.is_null()) {
            values[name] = nullptr; // None: a factory's "use the default tiles"
        } else if (!value.is_string()) {
            reader.error(valuePointer, "spec.wrong-type",
                         std::string("a made_with value is a rule giving a constant (\"float16\", "
                                     "\"'fp16'\", \"[64, 64]\"), a list or dict given as is "
                                     "({\"dict\": [[2, 4]]}) or null, not ") +
                             jsonKindName(value));
        } else if (auto v = constantRule(reader, valuePointer, value.get<std::string>())) {
            values[name] = kernelArgumentValueJson(*v);
        }
    }
    return values.dump();
}

} // namespace ptowb
