#include "commands.h"
#include "project/atomic_file.h"
#include "project/project.h"

#include <ostream>

namespace ptowb::cli {

std::optional<Project> openProjectArgument(const CommandLine& cmd, const char* usage,
                                           std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << "usage: " << usage << '\n';
        return std::nullopt;
    }
    std::string error;
    auto project = Project::open(cmd.positional[0], error);
    if (!project) err << "ptowb-cli: " << error << '\n';
    return project;
}

int runValidate(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli validate <project>", err);
    if (!project) return kUsageError;
    std::string description, reference, kernel;
    std::string error;
    if (!readTextFile(project->descriptionPath(), description, error)) {
        err << "ptowb-cli: " << error << '\n';
        return kUsageError;
    }
    // A missing file is a diagnostic from the description.
    readTextFile(project->referencePath(), reference, error);
    readTextFile(project->kernelPath(), kernel, error);
    const Diagnostics diagnostics = project->check(description, reference, kernel);
    for (const Diagnostic& d : diagnostics)
        out << formatDiagnostic(d) << '\n';
    const int errors = countErrors(diagnostics);
    const int warnings = int(diagnostics.size()) - errors;
    err << project->name() << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", "
        << warnings << " warning" << (warnings == 1 ? "" : "s") << '\n';
    return errors ? kFailure : kSuccess;
}

} // namespace ptowb::cli
