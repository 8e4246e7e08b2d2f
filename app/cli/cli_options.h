#pragma once

#include <map>
#include <string>
#include <vector>

namespace ptowb::cli {

// Exit codes of every command (DESIGN §10).
enum ExitCode
{
    kSuccess = 0,
    kFailure = 1,
    kUsageError = 2
};

// `ptowb-cli <command> <project> [--key value]...` split into its parts. Options may repeat.
struct CommandLine
{
    std::string command;
    std::vector<std::string> positional;
    std::multimap<std::string, std::string> options;
    std::vector<std::string> flags;

    bool hasFlag(const std::string& flag) const;
    std::vector<std::string> values(const std::string& option) const;
};

// Options listed in `valued` take a value (`--input x=4` or `--input=x=4`); others are flags.
// Returns an error message, or "" on success.
std::string parseCommandLine(const std::vector<std::string>& args,
                             const std::vector<std::string>& valued, CommandLine& out);

} // namespace ptowb::cli
