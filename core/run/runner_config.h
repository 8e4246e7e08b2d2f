#pragma once

#include "diag/diagnostic.h"
#include "run/config_files.h"

#include <map>
#include <string>
#include <vector>

namespace ptowb {

// An external runner: a command that reads a run folder's inputs and writes its outputs.
//   { "name": "kirin-phone", "kind": "device", "timeout_s": 120,
//     "command": ["hdc", "shell", "/data/local/ptowb/run_op", "{run_dir}"] }
// Placeholders: {run_dir}, {case}, {project}, {op}, {kernel}, {function}, and any other
// string field of the runner (e.g. "soc": "KirinX90" makes {soc}).
struct RunnerConfig
{
    std::string name;
    std::string kind = "device"; // device, sim, host: informative
    double timeoutSeconds = 120;
    std::vector<std::string> command;
    std::map<std::string, std::string> fields; // extra string fields, for placeholders
    std::string sourceFile;                    // which runners.json defined it
};

struct RunnerConfigs
{
    std::vector<RunnerConfig> runners;
    Diagnostics diagnostics;

    const RunnerConfig* find(const std::string& name) const;
    std::vector<std::string> names() const;
};

// Reads the user's runners.json and then the project's; a project runner of a name the user's
// file defines is ignored, with a warning. A file may hold one runner, an array of them, or
// {"runners": [...]}. Missing files are fine; malformed ones are diagnostics.
RunnerConfigs loadRunnerConfigs(const std::vector<std::string>& files);
// The same from texts (e.g. the settings editor's unsaved buffer).
RunnerConfigs loadRunnerConfigs(const std::vector<ConfigText>& texts);

// Expands the placeholders of a runner's command; unknown placeholders are left as written
// (config loading already reported them).
std::vector<std::string> expandCommand(const RunnerConfig& runner,
                                       const std::map<std::string, std::string>& values);

} // namespace ptowb
