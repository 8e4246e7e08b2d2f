#include "commands.h"
#include "pipeline/deploy_target.h"
#include "pipeline/pipeline.h"
#include "text/duration.h"

#include <filesystem>
#include <ostream>

namespace ptowb::cli {

int reportSteps(const PipelineResult& result, std::ostream& steps, std::ostream& diagnostics)
{
    bool badRequest = false;
    for (const StepResult& s : result.steps) {
        for (const Diagnostic& d : s.diagnostics)
            diagnostics << formatDiagnostic(d) << '\n';
        steps << stepSummary(s) << '\n';
        badRequest = badRequest || s.badRequest;
    }
    return badRequest ? kUsageError : result.ok() ? kSuccess : kFailure;
}

int runRedeploy(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(
        cmd, "ptowb-cli redeploy <project> [--target NAME] [--against sim|NAME] [--platform P]",
        err);
    if (!project) return kUsageError;
    PipelineOptions options;
    if (const auto a = cmd.values("against"); !a.empty()) options.against = a.back();
    if (const auto t = cmd.values("target"); !t.empty()) options.deployTarget = t.back();
    if (!simOptionsFromCommandLine(cmd, err, options.sim)) return kUsageError;
    options.progress = [&err](PipelineStep step, const std::string& message) {
        err << stepName(step) << ": " << message << "...\n";
    };
    return reportSteps(runPipeline(*project, options), out, err);
}

int runDeploy(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    auto project = openProjectArgument(cmd, "ptowb-cli deploy <project> --target NAME", err);
    if (!project) return kUsageError;
    const auto names = cmd.values("target");
    const DeployTargets targets = loadDeployTargets(project->deployConfigFiles());
    for (const Diagnostic& d : targets.diagnostics)
        err << formatDiagnostic(d) << '\n';
    if (names.empty() || hasErrors(targets.diagnostics)) {
        if (names.empty()) err << "usage: ptowb-cli deploy <project> --target NAME\n";
        return kUsageError;
    }
    const DeployTarget* target = targets.find(names.back());
    const SpecLoadResult loaded = project->validateSaved();
    if (!target || !loaded.usable()) {
        err << "ptowb-cli: "
            << (target ? "the op description has errors"
                       : "no deploy target named '" + names.back() + "' in deploy.json")
            << '\n';
        return kUsageError;
    }
    const std::string package = (std::filesystem::path(project->folder()) / "packages" /
                                 (loaded.spec.name + "-" + loaded.spec.version))
                                    .string();
    if (std::error_code ec; !std::filesystem::exists(package, ec)) {
        err << "ptowb-cli: no exported package at " << package
            << "; run export or redeploy first\n";
        return kUsageError;
    }
    if (std::string error =
            deployPackage(*target, package, package + ".tar.gz",
                          loaded.spec.ns + "::" + loaded.spec.name, loaded.spec.version, nullptr);
        !error.empty()) {
        err << "ptowb-cli: " << error << '\n';
        return kFailure;
    }
    out << "deployed " << package << " to " << target->name << '\n';
    return kSuccess;
}

} // namespace ptowb::cli
