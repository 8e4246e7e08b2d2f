#pragma once

#include "rules/rule_value.h"

#include <variant>

namespace ptowb::rules {

// Evaluates a checked tree on concrete inputs and parameters. Errors (index out of range,
// division by zero, overflow, broadcast mismatch...) come back as values with their span.
std::variant<Value, RuleError> evaluate(const Node& root, const RuleBindings& bindings);

} // namespace ptowb::rules
