#include "commands.h"

#include "project/project.h"

#include <ostream>

namespace ptowb::cli {

std::optional<Project> openProjectArgument(const CommandLine& cmd, const char* usage, std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << "usage: " << usage << '\n';
        return std::nullopt;
    }
    QString error;
    auto project = Project::open(QString::fromStdString(cmd.positional[0]), error);
    if (!project) err << "ptowb-cli: " << error.toStdString() << '\n';
    return project;
}

int runValidate(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli validate <project>", err);
    if (!project) return kUsageError;
    const SpecLoadResult result = project->validateSaved();
    for (const Diagnostic& d : result.diagnostics) (d.code.rfind("io.", 0) == 0 ? err : out) << formatDiagnostic(d) << '\n';
    for (const Diagnostic& d : result.diagnostics)
        if (d.code.rfind("io.", 0) == 0) return kUsageError;
    const int errors = countErrors(result.diagnostics);
    const int warnings = int(result.diagnostics.size()) - errors;
    err << project->name().toStdString() << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings
        << " warning" << (warnings == 1 ? "" : "s") << '\n';
    return errors ? kFailure : kSuccess;
}

} // namespace ptowb::cli
