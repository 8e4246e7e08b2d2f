#pragma once

#include "spec/op_spec.h"

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace ptowb {

struct InferredOutput
{
    std::string name;
    std::vector<std::int64_t> shape;
    DType dtype = DType::Float32;
};

struct InferenceError
{
    enum class Where
    {
        Input,
        Param,
        Constraint,
        OutputShape,
        OutputDType
    };
    Where where = Where::Input;
    int index = -1;      // which input, parameter, constraint or output
    std::string message; // for a failed constraint: the constraint's own message
    rules::Span span;    // inside the rule text, for rule evaluation errors
    bool ruleError = false;
};

// Converts a JSON value to a parameter value of the declared type (ints widen to floats);
// returns the reason when it does not fit.
std::variant<rules::Value, std::string> paramValueFromJson(const nlohmann::json& value,
                                                           ParamType type);
nlohmann::json paramValueToJson(const rules::Value& value);

// Orders the given parameters by the op's declaration and fills defaults. Fails on unknown
// names or missing required parameters.
std::variant<std::vector<rules::Value>, InferenceError>
resolveParams(const OpSpec& spec, const std::map<std::string, rules::Value>& given);

// Checks inputs against the description, evaluates the constraints in order, then every
// output's shape and dtype rules — the same evaluation the generated glue performs.
std::variant<std::vector<InferredOutput>, InferenceError>
inferOutputs(const OpSpec& spec, std::span<const rules::TensorInfo> inputs,
             std::span<const rules::Value> params);

// What one call produces: the inferred outputs, then each mutated input with its own shape and
// dtype (its value after the call is compared like an output's).
std::vector<InferredOutput> caseResults(const OpSpec& spec,
                                        std::span<const rules::TensorInfo> inputs,
                                        std::vector<InferredOutput> outputs);

} // namespace ptowb
