#pragma once

#include "rules/rule_ast.h"

#include <string_view>
#include <variant>

namespace ptowb::rules {

// Deepest nesting of brackets and operators a rule may have; deeper input is an error
// value rather than a stack overflow.
constexpr int kMaxRuleDepth = 200;
// Tallest syntax tree a rule may have, operator chains included (a + b + c is three levels):
// the checker, the evaluator and the emitters recurse once per level, about 2 KiB of stack
// each, so the tallest rule needs about 0.5 MiB, on any thread; CPython compiles emitted
// expressions this deep too (a 3,000-level one is a RecursionError at import of the glue).
constexpr int kMaxRuleHeight = 256;
constexpr std::size_t kMaxRuleLength = 64 * 1024;

// Parses one rule expression into an unresolved tree (names are NodeKind::Name).
std::variant<NodePtr, RuleError> parseRule(std::string_view text);

} // namespace ptowb::rules
