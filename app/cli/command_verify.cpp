#include "commands.h"
#include "io/atomic_write.h"
#include "run/reports.h"
#include "run/verification.h"

#include <fstream>
#include <ostream>

namespace ptowb::cli {

int runVerify(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    const char* usage = "ptowb-cli verify <project> [--against sim|NAME] [--case C] [--json FILE] "
                        "[--junit FILE] [--platform P] [--trace FILE] [--time-limit S]";
    RunnableProject p;
    if (int code = loadRunnableProject(cmd, usage, err, p); code >= 0) return code;
    const std::optional<Project>& project = p.project;
    const SpecLoadResult& loaded = p.loaded;
    const RunnerConfigs& runners = p.runners;
    std::string against = cmd.values("against").empty() ? "" : cmd.values("against").back();
    if (against.empty()) {
        if (runners.runners.empty()) {
            err << "ptowb-cli: nothing to verify against: name a runner with --against, or "
                   "configure one in runners.json\n";
            return kUsageError;
        }
        against = runners.runners.front().name;
    }
    const std::string projectDir = project->folder().toStdString();
    BackendChoice reference = makeBackend("ref", loaded.spec, projectDir, runners);
    SimRunOptions sim;
    if (!simOptionsFromCommandLine(cmd, err, sim)) return kUsageError;
    BackendChoice target = makeBackend(against, loaded.spec, projectDir, runners, sim);
    for (const BackendChoice* choice : {&reference, &target}) {
        for (const Diagnostic& d : choice->diagnostics)
            err << formatDiagnostic(d) << '\n';
        if (!choice->backend) {
            err << "ptowb-cli: " << choice->error << '\n';
            return choice->diagnostics.empty() ? kUsageError : kFailure;
        }
    }
    RunOptions options;
    options.caseFilter = cmd.values("case").empty() ? "" : cmd.values("case").back();
    const VerificationReport report =
        verify(loaded.spec, projectDir, *reference.backend, *target.backend,
               project->runsFolder().toStdString(), options);

    out << verificationSummary(report);
    if (!report.cases.empty() &&
        !copyTrace(cmd, report.targetRunDir, report.cases.front().caseName, err))
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
    err << loaded.spec.name << " vs " << report.target << ": " << (report.pass() ? "PASS" : "FAIL")
        << " (runs in " << report.targetRunDir << ")\n";
    return report.pass() ? kSuccess : kFailure;
}

} // namespace ptowb::cli
