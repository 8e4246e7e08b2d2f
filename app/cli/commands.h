#pragma once

#include "cli_options.h"
#include "project/project.h"

#include <iosfwd>
#include <optional>

namespace ptowb::cli {

// Opens the one project a command names, or prints why not (usage or I/O: exit code 2).
std::optional<Project> openProjectArgument(const CommandLine& cmd, const char* usage, std::ostream& err);

int runValidate(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runRun(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runCompare(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runVerify(const CommandLine& cmd, std::ostream& out, std::ostream& err);

} // namespace ptowb::cli
