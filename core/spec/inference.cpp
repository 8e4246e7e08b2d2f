#include "spec/inference.h"

#include "diag/suggest.h"
#include "rules/shape_functions.h"

#include "json/json_document.h"
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ptowb {

using rules::Value;

namespace {

std::variant<std::int64_t, std::string> jsonInt(const nlohmann::json& v)
{
    if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<std::int64_t>();
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > std::uint64_t(INT64_MAX))
            return std::string("integer ") + std::to_string(u) + " does not fit in 64 bits";
        return std::int64_t(u);
    }
    return std::string("expected an integer, got ") + jsonKindName(v);
}

std::variant<double, std::string> jsonNumber(const nlohmann::json& v)
{
    if (!v.is_number()) return std::string("expected a number, got ") + jsonKindName(v);
    const double d = v.get<double>();
    if (!std::isfinite(d)) return std::string("number is out of range");
    return d;
}

InferenceError failure(InferenceError::Where where, int index, std::string message)
{
    InferenceError e;
    e.where = where;
    e.index = index;
    e.message = std::move(message);
    return e;
}

InferenceError inputError(int index, std::string message)
{
    return failure(InferenceError::Where::Input, index, std::move(message));
}

} // namespace

std::variant<Value, std::string> paramValueFromJson(const nlohmann::json& v, ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        if (!v.is_boolean()) return std::string("expected true or false, got ") + jsonKindName(v);
        return Value::ofBool(v.get<bool>());
    case ParamType::Int: {
        auto i = jsonInt(v);
        if (auto* e = std::get_if<std::string>(&i)) return *e;
        return Value::ofInt(std::get<std::int64_t>(i));
    }
    case ParamType::Float: {
        auto d = jsonNumber(v);
        if (auto* e = std::get_if<std::string>(&d)) return *e;
        return Value::ofFloat(std::get<double>(d));
    }
    case ParamType::Str:
        if (!v.is_string()) return std::string("expected a string, got ") + jsonKindName(v);
        return Value::ofStr(v.get<std::string>());
    case ParamType::IntList:
    case ParamType::FloatList: {
        if (!v.is_array()) return std::string("expected a list, got ") + jsonKindName(v);
        Value out;
        out.type = type == ParamType::IntList ? rules::Type::Shape : rules::Type::FloatList;
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (type == ParamType::IntList) {
                auto i = jsonInt(v[k]);
                if (auto* e = std::get_if<std::string>(&i))
                    return "element " + std::to_string(k) + ": " + *e;
                out.ints.push_back(std::get<std::int64_t>(i));
            } else {
                auto d = jsonNumber(v[k]);
                if (auto* e = std::get_if<std::string>(&d))
                    return "element " + std::to_string(k) + ": " + *e;
                out.floats.push_back(std::get<double>(d));
            }
        }
        return out;
    }
    }
    return std::string("unknown parameter type");
}

nlohmann::json paramValueToJson(const Value& v)
{
    switch (v.type) {
    case rules::Type::Bool:
        return v.asBool();
    case rules::Type::Int:
        return v.i;
    case rules::Type::Float:
        return v.f;
    case rules::Type::Str:
        return v.s;
    case rules::Type::Shape:
        return v.ints;
    case rules::Type::FloatList:
        return v.floats;
    case rules::Type::DType:
        return std::string(dtypeName(v.dtype));
    default:
        return nullptr;
    }
}

std::variant<std::vector<Value>, InferenceError>
resolveParams(const OpSpec& spec, const std::map<std::string, Value>& given)
{
    std::vector<std::string> names;
    for (const auto& p : spec.params)
        names.push_back(p.name);
    for (const auto& [name, value] : given)
        if (spec.paramIndex(name) < 0)
            return failure(InferenceError::Where::Param, -1,
                           "unknown parameter '" + name + "'" + didYouMean(name, names) +
                               (names.empty() ? " (the op has no parameters)"
                                              : " (parameters: " + joinQuoted(names) + ")"));
    std::vector<Value> values;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        auto it = given.find(p.name);
        if (it == given.end()) {
            if (!p.defaultValue)
                return failure(InferenceError::Where::Param, int(k),
                               "parameter '" + p.name + "' is required (it has no default)");
            values.push_back(*p.defaultValue);
            continue;
        }
        const rules::Type want = ruleTypeOf(p.type);
        Value v = it->second;
        if (want == rules::Type::Float && v.type == rules::Type::Int)
            v = Value::ofFloat(double(v.i));
        if (want == rules::Type::FloatList && v.type == rules::Type::Shape)
            v = Value::ofFloatList(std::vector<double>(v.ints.begin(), v.ints.end()));
        if (v.type != want)
            return failure(InferenceError::Where::Param, int(k),
                           "parameter '" + p.name + "' is " +
                               std::string(paramTypeInfo(p.type).name) + ", got " +
                               rules::typeName(v.type) + " " + v.toString());
        values.push_back(std::move(v));
    }
    return values;
}

std::variant<std::vector<InferredOutput>, InferenceError>
inferOutputs(const OpSpec& spec, std::span<const rules::TensorInfo> inputs,
             std::span<const Value> params)
{
    if (inputs.size() != spec.inputs.size())
        return inputError(-1, "the op takes " + std::to_string(spec.inputs.size()) +
                                  " inputs, got " + std::to_string(inputs.size()));
    if (params.size() != spec.params.size())
        return failure(InferenceError::Where::Param, -1,
                       "parameter count does not match the description");
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        const rules::TensorInfo& t = inputs[k];
        if (std::find(in.dtypes.begin(), in.dtypes.end(), t.dtype) == in.dtypes.end()) {
            std::vector<std::string> allowed;
            for (DType d : in.dtypes)
                allowed.emplace_back(dtypeName(d));
            return inputError(int(k), "input '" + in.name + "' has dtype " +
                                          std::string(dtypeName(t.dtype)) +
                                          "; allowed: " + joinQuoted(allowed, ""));
        }
        if (in.rank && int(t.shape.size()) != *in.rank)
            return inputError(int(k), "input '" + in.name + "' has rank " +
                                          std::to_string(t.shape.size()) + " (shape " +
                                          shapefn::toString(t.shape) + "); the op needs rank " +
                                          std::to_string(*in.rank));
        for (auto d : t.shape)
            if (d < 0)
                return inputError(int(k), "input '" + in.name + "' has a negative dim in " +
                                              shapefn::toString(t.shape));
    }
    const rules::RuleBindings bindings{inputs, params};
    for (std::size_t k = 0; k < spec.constraints.size(); ++k) {
        const ConstraintSpec& c = spec.constraints[k];
        if (!c.rule) continue;
        auto result = c.rule->evaluate(bindings);
        if (auto* e = std::get_if<rules::RuleError>(&result))
            return InferenceError{InferenceError::Where::Constraint, int(k),
                                  "constraint '" + c.check + "': " + e->message, e->span, true};
        if (!std::get<Value>(result).asBool())
            return failure(InferenceError::Where::Constraint, int(k),
                           c.message.empty() ? "constraint failed: " + c.check : c.message);
    }
    std::vector<InferredOutput> outputs;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const OutputSpec& o = spec.outputs[k];
        InferredOutput out{o.name, {}, DType::Float32};
        if (o.shape) {
            auto r = o.shape->evaluate(bindings);
            if (auto* e = std::get_if<rules::RuleError>(&r))
                return InferenceError{InferenceError::Where::OutputShape, int(k),
                                      "output '" + o.name + "' shape: " + e->message, e->span,
                                      true};
            out.shape = std::move(std::get<Value>(r).ints);
            for (auto d : out.shape)
                if (d < 0)
                    return failure(InferenceError::Where::OutputShape, int(k),
                                   "output '" + o.name + "' shape " + shapefn::toString(out.shape) +
                                       " has a negative dim");
            // Whoever allocates the output computes its byte size: that product must not wrap.
            std::int64_t bytes = 8; // the widest element
            for (auto d : out.shape)
                if (__builtin_mul_overflow(bytes, d, &bytes))
                    return failure(InferenceError::Where::OutputShape, int(k),
                                   "output '" + o.name + "' shape " + shapefn::toString(out.shape) +
                                       " has too many elements: its size overflows 64 bits");
        }
        if (o.dtype) {
            auto r = o.dtype->evaluate(bindings);
            if (auto* e = std::get_if<rules::RuleError>(&r))
                return InferenceError{InferenceError::Where::OutputDType, int(k),
                                      "output '" + o.name + "' dtype: " + e->message, e->span,
                                      true};
            out.dtype = std::get<Value>(r).dtype;
        }
        outputs.push_back(std::move(out));
    }
    return outputs;
}

std::vector<InferredOutput> caseResults(const OpSpec& spec,
                                        std::span<const rules::TensorInfo> inputs,
                                        std::vector<InferredOutput> outputs)
{
    for (std::size_t k : spec.mutatedInputs())
        if (k < inputs.size())
            outputs.push_back({spec.inputs[k].name, inputs[k].shape, inputs[k].dtype});
    return outputs;
}

} // namespace ptowb
