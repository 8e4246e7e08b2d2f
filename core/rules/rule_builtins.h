#pragma once

#include "rules/rule_value.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptowb::rules {

std::optional<Builtin> builtinFromName(std::string_view name);
std::vector<std::string> builtinNames();
// "broadcast(shape, shape, ...)" — shown in errors and editor help.
const char* builtinSignature(Builtin builtin);
const char* builtinDoc(Builtin builtin); // "the NumPy broadcast of shapes"

struct BuiltinFailure
{
    int argument = -1; // the argument at fault, -1 for the call as a whole
    std::string code;
    std::string message;
};

// Static check of a call: the result type, or which argument is wrong and why.
std::variant<Type, BuiltinFailure> checkBuiltin(Builtin builtin, std::span<const Type> args);

// Where a failure of the call `call` points: the argument at fault, or the whole call.
Span failureSpan(const Node& call, const BuiltinFailure& failure);

// Evaluates a call whose argument types passed checkBuiltin.
std::variant<Value, BuiltinFailure> callBuiltin(Builtin builtin, std::vector<Value>& args);

// Overflow-checked integer arithmetic shared with the evaluator.
bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t& out);
bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t& out);

// Longest list that repetition or concatenation may build: `[1] * n` is bounded here, and the
// generated Python and C++ apply the same bound, so no rule can exhaust memory.
inline constexpr std::int64_t kMaxRuleListLength = 1'000'000;

} // namespace ptowb::rules
