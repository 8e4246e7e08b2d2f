#include "spec/kernel_arguments.h"

#include "spec/inference.h"

#include <regex>
#include <set>
#include <vector>

namespace ptowb {

nlohmann::json kernelArgumentValueJson(const rules::Value& value)
{
    if (value.type == rules::Type::DType) return {{"dtype", std::string(dtypeName(value.dtype))}};
    return paramValueToJson(value);
}

std::string kernelArgumentClassProblem(const std::string& name)
{
    static const std::regex kDotted(
        R"(^[A-Za-z_][A-Za-z0-9_]{0,127}(\.[A-Za-z_][A-Za-z0-9_]{0,127}){0,7}$)");
    if (std::regex_match(name, kDotted)) return {};
    return "\"" + name +
           "\" is not a class of the kernel file: give its name, or a dotted path such as "
           "configs.NormConfig";
}

std::string kernelArgumentLiteralProblem(const nlohmann::json& value)
{
    std::size_t items = 0;
    // Iterative, so that a deep array costs no stack (op.json's nesting limit applies first).
    std::vector<const nlohmann::json*> pending{&value};
    while (!pending.empty()) {
        const nlohmann::json* v = pending.back();
        pending.pop_back();
        if (v->is_array()) {
            for (const auto& item : *v)
                pending.push_back(&item);
        } else if (v->is_object()) {
            // A Python dict, as {"dict": [[key, value], ...]}: JSON's keys are strings, a
            // config's ({2: 4}) need not be.
            const auto pairs = v->find("dict");
            if (v->size() != 1 || pairs == v->end() || !pairs->is_array())
                return "an object in a literal value is a dict, written {\"dict\": [[key, "
                       "value], ...]}";
            std::set<std::string> keys; // as Python hashes them: 1, 1.0 and true are one key
            for (const auto& pair : *pairs) {
                if (!pair.is_array() || pair.size() != 2)
                    return "each item of a literal dict is a [key, value] pair";
                const nlohmann::json& key = pair[0];
                if (!(key.is_number() || key.is_string() || key.is_boolean()))
                    return "a literal dict's keys are numbers, strings or booleans";
                const std::string same = key.is_string() ? "s" + key.get<std::string>()
                                         : key.is_boolean()
                                             ? "n" + std::to_string(key.get<bool>() ? 1.0 : 0.0)
                                             : "n" + std::to_string(key.get<double>());
                if (!keys.insert(same).second)
                    return "a literal dict gives the key " + key.dump() + " twice";
                pending.push_back(&pair[1]);
                ++items;
            }
        } else if (!(v->is_number() || v->is_string() || v->is_boolean())) {
            return "a literal value holds numbers, strings, booleans, lists and dicts of them, "
                   "not null";
        }
        if (++items > kMaxKernelArgumentLiteralItems)
            return "a literal value holds at most " +
                   std::to_string(kMaxKernelArgumentLiteralItems) + " items";
    }
    return "";
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
            nlohmann::json valueJson;
            if (!field.literalJson.empty()) {
                valueJson = nlohmann::json::parse(field.literalJson);
            } else {
                if (!field.rule) return what + ": the rule did not compile";
                auto value = field.rule->evaluate(bindings);
                if (auto* e = std::get_if<rules::RuleError>(&value))
                    return what + ": " + e->message;
                valueJson = kernelArgumentValueJson(std::get<rules::Value>(value));
            }
            if (argument.className.empty()) {
                out[argument.name] = std::move(valueJson);
                break;
            }
            fields[field.name] = std::move(valueJson);
        }
        if (!argument.className.empty())
            out[argument.name] = {{"class", argument.className}, {"fields", std::move(fields)}};
    }
    return out;
}

} // namespace ptowb
