#pragma once

#include "rules/rule_checker.h"
#include "rules/rule_value.h"

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ptowb::rules {

// A parsed and type-checked rule, ready to evaluate many times or to emit as code.
class Rule
{
public:
    static std::variant<Rule, std::vector<RuleError>> compile(std::string_view text,
                                                              const RuleScope& scope);

    const std::string& text() const { return m_text; }
    Type type() const { return m_root->type; }
    const Node& root() const { return *m_root; }

    std::variant<Value, RuleError> evaluate(const RuleBindings& bindings) const;

private:
    std::string m_text;
    std::shared_ptr<const Node> m_root;
};

} // namespace ptowb::rules
