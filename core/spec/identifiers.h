#pragma once

#include <string>
#include <string_view>

namespace ptowb {

// Names that reach generated Python and C++ must be safe in both. Returns "" when the name
// is acceptable, otherwise the reason it is not.
std::string checkIdentifier(std::string_view name); // [a-z_][a-z0-9_]*, not a keyword
// Inputs, outputs and parameters bind by name to the kernel's Python parameters, which real
// kernels spell K, H, NUM_ROWS or `do`: [A-Za-z_][A-Za-z0-9_]*, not a Python keyword.
std::string checkArgumentName(std::string_view name);
std::string checkOpTypeName(std::string_view name); // [A-Z][A-Za-z0-9]*, not a keyword
bool isReservedWord(std::string_view word);         // Python or C++ keyword
bool isPythonKeyword(std::string_view word);

} // namespace ptowb
