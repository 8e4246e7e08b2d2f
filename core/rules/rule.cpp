#include "rules/rule.h"

#include "rules/rule_evaluator.h"
#include "rules/rule_parser.h"

namespace ptowb::rules {

std::variant<Rule, std::vector<RuleError>> Rule::compile(std::string_view text,
                                                         const RuleScope& scope)
{
    auto parsed = parseRule(text);
    if (auto* error = std::get_if<RuleError>(&parsed))
        return std::vector<RuleError>{std::move(*error)};
    NodePtr root = std::move(std::get<NodePtr>(parsed));
    std::vector<RuleError> errors = checkRule(*root, scope);
    if (!errors.empty()) return errors;
    Rule rule;
    rule.m_text = std::string(text);
    rule.m_root = std::move(root);
    return rule;
}

std::variant<Value, RuleError> Rule::evaluate(const RuleBindings& bindings) const
{
    return rules::evaluate(*m_root, bindings);
}

} // namespace ptowb::rules
