#pragma once

#include "spec/op_spec.h"

#include <vector>

namespace ptowb {

// One supported combination of dtypes: one per input, then one per output.
struct DTypeCombination
{
    std::vector<DType> inputs;
    std::vector<DType> outputs;
};

// Every combination of the inputs' allowed dtypes that the description accepts, with the
// output dtypes its rules give. A combination is accepted when, on the shapes and
// parameters of some case, the constraints hold and every output rule evaluates; without
// cases, when the output dtype rules evaluate. Graph-compiler descriptions list these, so
// output dtypes are never pinned to whatever one trace happened to use.
std::vector<DTypeCombination> dtypeCombinations(const OpSpec& spec);

// The distinct dtypes of input `index` (or output `index`) over all combinations, in table order.
std::vector<DType> inputDTypes(const std::vector<DTypeCombination>& combinations,
                               std::size_t index);
std::vector<DType> outputDTypes(const std::vector<DTypeCombination>& combinations,
                                std::size_t index);

} // namespace ptowb
