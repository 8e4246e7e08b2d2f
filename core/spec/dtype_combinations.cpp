#include "spec/dtype_combinations.h"

#include "spec/inference.h"

#include <algorithm>

namespace ptowb {

namespace {

// Enough for any real op; a description listing more stops being enumerated there.
constexpr std::size_t kMaxCombinations = 4096;

std::vector<std::vector<DType>> inputProducts(const OpSpec& spec)
{
    std::vector<std::vector<DType>> products{{}};
    for (const auto& in : spec.inputs) {
        std::vector<std::vector<DType>> next;
        for (const auto& prefix : products)
            for (DType d : in.dtypes) {
                if (next.size() >= kMaxCombinations) break;
                next.push_back(prefix);
                next.back().push_back(d);
            }
        products = std::move(next);
    }
    return products;
}

std::optional<std::vector<DType>> outputsOnCase(const OpSpec& spec, const CaseSpec& c,
                                                const std::vector<DType>& dtypes)
{
    std::vector<rules::TensorInfo> inputs;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        inputs.push_back({c.inputs[k].shape, dtypes[k]});
    auto inferred = inferOutputs(spec, inputs, c.params);
    auto* outputs = std::get_if<std::vector<InferredOutput>>(&inferred);
    if (!outputs) return std::nullopt;
    std::vector<DType> out;
    for (const auto& o : *outputs)
        out.push_back(o.dtype);
    return out;
}

std::optional<std::vector<DType>> outputsFromDTypeRules(const OpSpec& spec,
                                                        const std::vector<DType>& dtypes)
{
    std::vector<rules::TensorInfo> inputs;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        inputs.push_back(
            {std::vector<std::int64_t>(std::size_t(spec.inputs[k].rank.value_or(1)), 1),
             dtypes[k]});
    std::vector<rules::Value> params;
    for (const auto& p : spec.params) {
        if (!p.defaultValue) return std::nullopt;
        params.push_back(*p.defaultValue);
    }
    const rules::RuleBindings bindings{inputs, params};
    std::vector<DType> out;
    for (const auto& o : spec.outputs) {
        if (!o.dtype) return std::nullopt;
        auto value = o.dtype->evaluate(bindings);
        auto* v = std::get_if<rules::Value>(&value);
        if (!v || v->type != rules::Type::DType) return std::nullopt;
        out.push_back(v->dtype);
    }
    return out;
}

std::vector<DType> distinct(const std::vector<DTypeCombination>& all, std::size_t index,
                            bool outputs)
{
    std::vector<DType> out;
    for (const auto& c : all) {
        const auto& list = outputs ? c.outputs : c.inputs;
        if (index < list.size() && std::find(out.begin(), out.end(), list[index]) == out.end())
            out.push_back(list[index]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

std::vector<DTypeCombination> dtypeCombinations(const OpSpec& spec)
{
    std::vector<DTypeCombination> result;
    for (const auto& dtypes : inputProducts(spec)) {
        std::optional<std::vector<DType>> outputs;
        for (const auto& c : spec.cases) {
            if (c.inputs.size() != spec.inputs.size() || c.params.size() != spec.params.size())
                continue;
            if ((outputs = outputsOnCase(spec, c, dtypes))) break;
        }
        if (spec.cases.empty()) outputs = outputsFromDTypeRules(spec, dtypes);
        if (outputs) result.push_back({dtypes, *outputs});
    }
    return result;
}

std::vector<DType> inputDTypes(const std::vector<DTypeCombination>& combinations, std::size_t index)
{
    return distinct(combinations, index, false);
}

std::vector<DType> outputDTypes(const std::vector<DTypeCombination>& combinations,
                                std::size_t index)
{
    return distinct(combinations, index, true);
}

} // namespace ptowb
