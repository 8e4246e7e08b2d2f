#pragma once

#include "rules/rule_ast.h"

#include <optional>
#include <string>
#include <vector>

namespace ptowb::rules {

struct ScopeParam
{
    std::string name;
    Type type = Type::Int;
};

// The names a rule may refer to: the op's inputs (tensors) and parameters, in slot order.
struct RuleScope
{
    std::vector<std::string> inputs;
    std::vector<ScopeParam> params;
    // Each input's rank when op.json fixes it (empty or 0 entries: any rank): a constant index
    // past it is an error at the rule, not at every case.
    std::vector<std::optional<int>> inputRanks;
};

// Resolves names and assigns a static type to every node; returns every problem found.
std::vector<RuleError> checkRule(Node& root, const RuleScope& scope);

} // namespace ptowb::rules
