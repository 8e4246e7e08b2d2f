#include "commands.h"
#include "io/clean_path.h"
#include "package/package_check.h"
#include "package/package_export.h"

#include <ostream>

namespace ptowb::cli {

int runExport(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(
        cmd, "ptowb-cli export <project> [--out DIR] [--archive] [--against sim|NAME] [--force]",
        err);
    if (!project) return kUsageError;
    // The app's Export: validate, generate, verify, export. A kernel that fails verification is
    // not exported unless --force says so.
    PipelineOptions options;
    options.stopAfter = PipelineStep::Export;
    options.archive = cmd.hasFlag("archive");
    options.exportFailing = cmd.hasFlag("force");
    if (const auto dirs = cmd.values("out"); !dirs.empty())
        options.exportFolder = cleanAbsolutePath(dirs.back());
    if (const auto against = cmd.values("against"); !against.empty())
        options.against = against.back();
    options.progress = [&err](PipelineStep step, const std::string& message) {
        err << stepName(step) << ": " << message << "...\n";
    };
    const PipelineResult result = runPipeline(*project, options);
    const int status = reportSteps(result, err, out);
    const bool exported = !result.steps.empty() &&
                          result.steps.back().step == PipelineStep::Export &&
                          !result.packageFolder.empty();
    if (!exported) {
        err << "ptowb-cli: nothing was exported";
        if (!options.exportFailing && !result.verification.cases.empty() &&
            !result.verification.pass())
            err << " (the kernel fails verification; --force exports it anyway)";
        err << '\n';
        return status == kSuccess ? kFailure : status;
    }
    out << result.packageFolder << '\n';
    if (!result.archivePath.empty()) out << result.archivePath << '\n';
    return kSuccess;
}

int runCheckPackage(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    if (cmd.positional.size() != 1) {
        err << "usage: ptowb-cli check-package <package folder or .tar.gz>\n";
        return kUsageError;
    }
    const PackageCheck check = checkPackage(cmd.positional[0]);
    if (!check.error.empty()) {
        err << "ptowb-cli: " << check.error << '\n';
        return kUsageError;
    }
    for (const auto& [label, files] : {std::pair{"missing", &check.missing},
                                       {"changed", &check.changed},
                                       {"extra", &check.extra},
                                       {"unsafe", &check.unsafe}})
        for (const std::string& f : *files)
            out << label << ": " << f << '\n';
    if (check.ok()) out << "package ok\n";
    return check.ok() ? kSuccess : kFailure;
}

} // namespace ptowb::cli
