#pragma once

#include <string>
#include <vector>

namespace ptowb {

// The words of op.json — its keys, its criteria, the value of "format" — each once, with its
// help. The loader checks keys and criteria against it, the editor's hover help and completion
// are made from it (with the rule functions of rules/rule_builtins and the fills of
// spec/fill_spec, which keep their own tables).
enum class OpJsonWordKind
{
    TopKey,    // a key of the description's top level
    Key,       // a key inside one of its objects
    Criterion, // a name in tolerance.criteria
    Value      // another word with a meaning ("ptowb-op/1", numel)
};

std::vector<std::string> opJsonWords(OpJsonWordKind kind); // in the table's order

// One-paragraph help for an op.json key, criterion, rule function, fill or dtype (the
// editor's hover help); "" for a word op.json does not use.
std::string opJsonHelp(const std::string& word);

// What the op.json editor completes: every word above, the fills and rule functions with their
// arguments ("normal(mean, std)"), and the dtype names.
std::vector<std::string> opJsonCompletions();

} // namespace ptowb
