#pragma once

#include "rules/rule_ast.h"

#include <string_view>
#include <variant>

namespace ptowb::rules {

// Deepest nesting of brackets and operators a rule may have; deeper input is an error
// value rather than a stack overflow.
constexpr int kMaxRuleDepth = 200;
constexpr std::size_t kMaxRuleLength = 64 * 1024;

// Parses one rule expression into an unresolved tree (names are NodeKind::Name).
std::variant<NodePtr, RuleError> parseRule(std::string_view text);

} // namespace ptowb::rules
