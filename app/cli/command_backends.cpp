#include "commands.h"

#include <algorithm>
#include <ostream>

namespace ptowb::cli {

// What `verify --against` and `run --backend` can use for this project, and why not where one
// cannot run here: the app's backend choice lists the same.
int runBackends(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli backends <project> [--python PY]", err);
    if (!project) return kUsageError;
    const RunnerConfigs runners = loadRunnerConfigs(project->runnerConfigFiles());
    for (const Diagnostic& d : runners.diagnostics)
        err << formatDiagnostic(d) << '\n';
    const std::vector<VerifyTarget> targets = verifyTargets(runners);
    std::size_t width = 0;
    for (const VerifyTarget& t : targets)
        width = std::max(width, t.name.size());
    for (const VerifyTarget& t : targets) {
        out << t.name << std::string(width + 2 - t.name.size(), ' ')
            << (t.unavailable.empty() ? "available    " : "unavailable  ") << t.description << '\n';
        if (!t.unavailable.empty())
            out << std::string(width + 2, ' ') << "  " << t.unavailable << '\n';
    }
    return kSuccess;
}

} // namespace ptowb::cli
