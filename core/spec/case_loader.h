#pragma once

#include "spec/op_spec.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ptowb {

class SpecReader;

// Reads /cases and checks each case against the op: input names, shapes against rank, dtypes
// against the allowed ones, fills, parameter types, and the constraints and output rules
// evaluated on the case. Only fully valid cases are added to spec.cases.
void loadCases(SpecReader& reader, const nlohmann::json& root, OpSpec& spec,
               const std::string& projectDir);

// Largest element count a case input may have (2^31), so generated inputs stay within memory.
inline constexpr std::int64_t kMaxCaseElements = std::int64_t(1) << 31;

} // namespace ptowb
