#pragma once

#include "kernel/kernel_ast.h"

namespace ptowb::kernel {

// Parses a kernel file: any Python 3 source. Syntax errors become diagnostics at their
// line:column; parsing resumes at the next statement, so one file reports all its problems and
// the statements around a broken one are still read.
Module parseKernel(std::string_view source, const std::string& file, Diagnostics& diagnostics);

// Whether `f` is a PyPTO kernel: decorated with pypto.frontend.jit or pypto.jit, under whatever
// name the module imported them.
bool isJitKernel(const Module& module, const FunctionDef& f);

} // namespace ptowb::kernel
