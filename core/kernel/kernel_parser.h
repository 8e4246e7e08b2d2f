#pragma once

#include "kernel/kernel_ast.h"

namespace ptowb::kernel {

// Parses a kernel file. Syntax errors and constructs outside the subset (DESIGN §5) become
// diagnostics at their line:column; parsing resumes at the next statement, so one file
// reports all its problems.
Module parseKernel(std::string_view source, const std::string& file, Diagnostics& diagnostics);

} // namespace ptowb::kernel
