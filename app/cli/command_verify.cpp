#include "commands.h"
#include "io/atomic_write.h"
#include "pipeline/pipeline.h"
#include "run/reports.h"

#include <ostream>

namespace ptowb::cli {

int runVerify(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    const char* usage =
        "ptowb-cli verify <project> [--against sim|pypto-sim|npu|NAME] [--case C] [--json FILE] "
        "[--junit FILE] [--platform P] [--trace FILE] [--time-limit S]";
    auto project = openProjectArgument(cmd, usage, err);
    if (!project) return kUsageError;
    // The app's Verify: validate, generate, verify. Against the named target, else the first
    // runner runners.json configures, else the simulator.
    PipelineOptions options;
    options.stopAfter = PipelineStep::Verify;
    if (const auto against = cmd.values("against"); !against.empty()) {
        options.against = against.back();
    } else {
        const RunnerConfigs runners = loadRunnerConfigs(project->runnerConfigFiles());
        options.against = runners.runners.empty() ? "sim" : runners.runners.front().name;
        err << "verifying against " << options.against
            << (runners.runners.empty() ? " (no runner is configured in runners.json)"
                                        : " (the first runner of runners.json)")
            << "\n";
    }
    if (const auto c = cmd.values("case"); !c.empty()) options.caseFilter = c.back();
    if (!simOptionsFromCommandLine(cmd, err, options.sim)) return kUsageError;
    const PipelineResult result = runPipeline(*project, options);
    const int status = reportSteps(result, err, err);
    const VerificationReport& report = result.verification;
    if (report.cases.empty()) return status;

    out << verificationSummary(report);
    if (!copyTrace(cmd, report.targetRunDir, report.cases.front().caseName, err))
        return kUsageError;
    auto writeReport = [&](const char* option, const std::string& text) {
        for (const std::string& path : cmd.values(option)) {
            if (std::string e = writeAtomically(path, {text}); !e.empty()) {
                err << "ptowb-cli: " << e << '\n';
                return false;
            }
        }
        return true;
    };
    if (!writeReport("json", verificationJson(report).dump(2) + "\n") ||
        !writeReport("junit", verificationJUnit(report)))
        return kUsageError;
    const bool costOnly = report.cases.front().costOnly; // the target produces no values
    err << report.op << " vs " << report.target << ": "
        << (!report.pass() ? "FAIL"
            : costOnly     ? "RAN (cost only, nothing compared)"
                           : "PASS")
        << " (runs in " << report.targetRunDir << ")\n";
    return report.pass() ? kSuccess : kFailure;
}

} // namespace ptowb::cli
