#pragma once

#include <string>

namespace ptowb {

// One-paragraph help for an op.json key, a rule function or a criterion name (the editor's
// hover help); "" for a word op.json does not use.
std::string opJsonHelp(const std::string& word);

} // namespace ptowb
