#pragma once

// The Python modules of a project that a kernel file imports, found from the files' text
// (nothing runs): what the kernel needs beside it wherever it goes (an exported package).
#include <string>
#include <vector>

namespace ptowb::kernel {

// The files below `projectFolder` that `kernelFile` (relative to it) imports, directly or through
// the modules it imports, as paths relative to the project folder, sorted; the kernel file is not
// among them. Module names resolve as the kernel worker's import path has them: from the kernel's
// folder and from the first folder above it that is not a package (holds no __init__.py), never
// above the project folder; a package's __init__.py comes with each module of it, and relative
// imports resolve in the importing file's package. A module named by a computed string
// (importlib.import_module(name)) cannot be seen. Files that leave the project through a
// symbolic link, and files over kMaxModuleBytes, are left out.
std::vector<std::string> kernelModules(const std::string& projectFolder,
                                       const std::string& kernelFile);

inline constexpr long long kMaxModuleBytes = 8ll << 20;

} // namespace ptowb::kernel
