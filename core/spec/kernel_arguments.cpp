#include "spec/kernel_arguments.h"

#include "spec/inference.h"

namespace ptowb {

nlohmann::json kernelArgumentValueJson(const rules::Value& value)
{
    if (value.type == rules::Type::DType) return {{"dtype", std::string(dtypeName(value.dtype))}};
    return paramValueToJson(value);
}

std::variant<nlohmann::json, std::string>
kernelArgumentsJson(const OpSpec& spec, std::span<const rules::TensorInfo> inputs,
                    std::span<const rules::Value> params)
{
    const rules::RuleBindings bindings{inputs, params};
    nlohmann::json out = nlohmann::json::object();
    for (const KernelArgumentSpec& argument : spec.kernelArguments) {
        nlohmann::json fields = nlohmann::json::object();
        for (const auto& field : argument.fields) {
            const std::string what = "kernel argument '" + argument.name + "'" +
                                     (field.name.empty() ? "" : " field '" + field.name + "'");
            if (!field.rule) return what + ": the rule did not compile";
            auto value = field.rule->evaluate(bindings);
            if (auto* e = std::get_if<rules::RuleError>(&value)) return what + ": " + e->message;
            if (argument.className.empty()) {
                out[argument.name] = kernelArgumentValueJson(std::get<rules::Value>(value));
                break;
            }
            fields[field.name] = kernelArgumentValueJson(std::get<rules::Value>(value));
        }
        if (!argument.className.empty())
            out[argument.name] = {{"class", argument.className}, {"fields", std::move(fields)}};
    }
    return out;
}

} // namespace ptowb
