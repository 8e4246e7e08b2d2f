#include "spec/op_spec.h"

namespace ptowb {

rules::Type ruleTypeOf(ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return rules::Type::Bool;
    case ParamType::Int:
        return rules::Type::Int;
    case ParamType::Float:
        return rules::Type::Float;
    case ParamType::Str:
        return rules::Type::Str;
    case ParamType::IntList:
        return rules::Type::Shape;
    case ParamType::FloatList:
        return rules::Type::FloatList;
    }
    return rules::Type::Error;
}

rules::RuleScope OpSpec::ruleScope() const
{
    rules::RuleScope scope;
    for (const auto& in : inputs) {
        scope.inputs.push_back(in.name);
        scope.inputRanks.push_back(in.rank);
    }
    for (const auto& p : params)
        scope.params.push_back({p.name, ruleTypeOf(p.type)});
    return scope;
}

int OpSpec::inputIndex(const std::string& inputName) const
{
    for (std::size_t k = 0; k < inputs.size(); ++k)
        if (inputs[k].name == inputName) return int(k);
    return -1;
}

int OpSpec::paramIndex(const std::string& paramName) const
{
    for (std::size_t k = 0; k < params.size(); ++k)
        if (params[k].name == paramName) return int(k);
    return -1;
}

std::vector<std::size_t> OpSpec::mutatedInputs() const
{
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < inputs.size(); ++k)
        if (inputs[k].mutated) out.push_back(k);
    return out;
}

bool CaseSpec::expectsEveryResult(const std::vector<std::string>& results) const
{
    if (expected.empty()) return false;
    for (const auto& name : results)
        if (!expected.count(name) && !unchecked.count(name)) return false;
    return true;
}

std::vector<std::string> OpSpec::resultNames() const
{
    std::vector<std::string> names;
    for (const auto& o : outputs)
        names.push_back(o.name);
    for (std::size_t k : mutatedInputs())
        names.push_back(inputs[k].name);
    return names;
}

} // namespace ptowb
