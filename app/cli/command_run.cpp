#include "commands.h"
#include "diag/suggest.h"
#include "project/project_sources.h"
#include "run/tolerance_defaults.h"
#include "run/verification.h"
#include "text/duration.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <ostream>

namespace ptowb::cli {

int loadRunnableProject(const CommandLine& cmd, const char* usage, std::ostream& err,
                        RunnableProject& out)
{
    std::optional<Project>& project = out.project;
    SpecLoadResult& spec = out.loaded;
    RunnerConfigs& runners = out.runners;
    project = openProjectArgument(cmd, usage, err);
    if (!project) return kUsageError;
    ProjectSources sources = readProjectSources(*project);
    if (!sources.error.empty()) {
        err << "ptowb-cli: " << sources.error << '\n';
        return kUsageError;
    }
    spec = std::move(sources.loaded);
    if (!spec.usable()) {
        for (const Diagnostic& d : spec.diagnostics)
            if (d.isError()) err << formatDiagnostic(d) << '\n';
        return kFailure;
    }
    out.texts = sources.texts(*project);
    runners = loadRunnerConfigs(project->runnerConfigFiles());
    for (const Diagnostic& d : runners.diagnostics)
        err << formatDiagnostic(d) << '\n';
    const ToleranceDefaults tolerances = loadToleranceDefaults(project->toleranceConfigFiles());
    for (const Diagnostic& d : tolerances.diagnostics)
        err << formatDiagnostic(d) << '\n';
    if (hasErrors(tolerances.diagnostics)) return kFailure;
    spec.spec.tolerance = withDefaults(spec.spec.tolerance, tolerances.tolerance);
    if (const std::string c = cmd.values("case").empty() ? "" : cmd.values("case").back();
        !c.empty()) {
        std::vector<std::string> names;
        for (const auto& testCase : spec.spec.cases)
            names.push_back(testCase.name);
        if (std::find(names.begin(), names.end(), c) == names.end()) {
            err << "ptowb-cli: the op has no case '" << c << "'" << didYouMean(c, names)
                << " (cases: " << joinQuoted(names) << ")\n";
            return kUsageError;
        }
    }
    return -1;
}

int runRun(const CommandLine& cmd, std::ostream& out, std::ostream& err)
{
    const char* usage =
        "ptowb-cli run <project> --backend ref|sim|pypto-sim|npu|NAME [--case C] [--out DIR] "
        "[--platform P] [--trace FILE] [--capture] [--time-limit S]";
    RunnableProject p;
    if (int code = loadRunnableProject(cmd, usage, err, p); code >= 0) return code;
    const std::optional<Project>& project = p.project;
    const SpecLoadResult& loaded = p.loaded;
    const auto backends = cmd.values("backend");
    if (backends.empty()) {
        err << "usage: " << usage << '\n';
        return kUsageError;
    }
    const std::string& projectDir = project->folder();
    SimRunOptions sim;
    if (!simOptionsFromCommandLine(cmd, err, sim)) return kUsageError;
    BackendChoice choice = makeBackend(backends.back(), loaded.spec, p.texts, p.runners, sim);
    for (const Diagnostic& d : choice.diagnostics)
        err << formatDiagnostic(d) << '\n';
    if (!choice.backend) {
        err << "ptowb-cli: " << choice.error << '\n';
        return choice.diagnostics.empty() ? kUsageError : kFailure;
    }
    if (std::string error = project->linkedFolderError(project->runsFolder());
        cmd.values("out").empty() && !error.empty()) {
        err << "ptowb-cli: " << error << '\n';
        return kFailure;
    }
    RunOptions options;
    options.caseFilter = cmd.values("case").empty() ? "" : cmd.values("case").back();
    options.runDir = cmd.values("out").empty() ? (std::filesystem::path(project->runsFolder()) /
                                                  runfolder::newRunId(choice.backend->name()))
                                                     .string()
                                               : cmd.values("out").back();
    const std::vector<CaseRun> runs = runCases(loaded.spec, projectDir, *choice.backend, options);
    int failed = 0;
    for (const CaseRun& r : runs) {
        if (r.ok()) {
            out << r.caseName << ": ok (" << formatDuration(r.record.durationSeconds);
            if (r.record.costEstimateUs >= 0)
                out << ", estimated " << formatDuration(r.record.costEstimateUs * 1e-6)
                    << " on the device";
            if (const auto& cost = r.record.cost; cost.contains("total_cycles"))
                out << ", " << cost["total_cycles"].get<std::int64_t>() << " cycles by "
                    << cost.value("source", std::string());
            out << ") -> " << r.dir << '\n';
            continue;
        }
        ++failed;
        out << r.caseName << ": " << r.record.status << ": " << r.record.error << '\n';
        if (!r.record.stderrTail.empty()) out << "  stderr: " << r.record.stderrTail << '\n';
    }
    if (!runs.empty() && !copyTrace(cmd, options.runDir, runs.front().caseName, err))
        return kUsageError;
    err << runs.size() << " case" << (runs.size() == 1 ? "" : "s") << " run, " << failed
        << " failed; run folder " << options.runDir << '\n';
    return failed ? kFailure : kSuccess;
}

} // namespace ptowb::cli
