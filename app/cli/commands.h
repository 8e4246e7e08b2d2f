#pragma once

#include "cli_options.h"

#include <iosfwd>

namespace ptowb::cli {

int runValidate(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err);

} // namespace ptowb::cli
