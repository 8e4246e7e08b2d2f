#pragma once

#include "spec/op_spec.h"
#include "tensor/tensor.h"

#include <string>
#include <variant>
#include <vector>

namespace ptowb {

// The input tensors of one case, generated from each input's fill spec. Reproducible: the
// values depend only on the op's seed, the case name, the input name and the fill, through
// a generator defined here (not the standard library's), so every build gives the same bits.
std::variant<std::vector<Tensor>, std::string>
makeCaseInputs(const OpSpec& spec, const CaseSpec& testCase, const std::string& projectDir);

Tensor fillTensor(const FillSpec& fill, DType dtype, const std::vector<std::int64_t>& shape,
                  std::uint64_t seed);

std::uint64_t caseInputSeed(std::uint64_t opSeed, const std::string& caseName,
                            const std::string& inputName);

} // namespace ptowb
