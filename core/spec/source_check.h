#pragma once

#include "spec/op_spec.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptowb {

class SpecReader;

// "" when `path` is a relative path that stays inside the project folder; otherwise why not.
std::string checkRelativePath(std::string_view path);

// Names of the functions defined at the top level of a Python source ("def name(").
std::vector<std::string> topLevelFunctions(std::string_view pythonSource);

// Reports a missing or unreadable file at <pointer>/file and an undefined function at
// <pointer>/function.
void checkSourceFile(SpecReader& reader, const std::string& pointer, const std::string& projectDir,
                     const SourceFileRef& ref);

} // namespace ptowb
