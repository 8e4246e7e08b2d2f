#pragma once

#include "cli_options.h"
#include "pipeline/pipeline.h"
#include "project/project.h"
#include "run/backend.h"
#include "run/runner_config.h"
#include "run/sim_run_options.h"

#include <iosfwd>
#include <optional>

namespace ptowb::cli {

// A project ready to run: its files as read once, its op (valid) and its runners.
struct RunnableProject
{
    std::optional<Project> project;
    ProjectTexts texts;
    SpecLoadResult loaded;
    RunnerConfigs runners;
};

// Loads what `run` and `verify` need and checks --case; prints problems. Returns the exit
// code to stop with, or -1 to go on.
int loadRunnableProject(const CommandLine& cmd, const char* usage, std::ostream& err,
                        RunnableProject& out);

// Opens the one project a command names, or prints why not (usage or I/O: exit code 2).
std::optional<Project> openProjectArgument(const CommandLine& cmd, const char* usage,
                                           std::ostream& err);

// --platform NAME|FILE, --trace FILE (implies a platform), --capture: how `sim` runs;
// --time-limit SECONDS: how long one case of the kernel or the reference may take (60).
// --python PATH (else PTOWB_PYTHON, else the system Python): the interpreter kernels run in. For
// commands that run kernels, false (with the message said) when they cannot run in it.
bool chooseInterpreter(const CommandLine& cmd, std::ostream& err);
bool simOptionsFromCommandLine(const CommandLine& cmd, std::ostream& err, SimRunOptions& options);
// Copies the named case's trace.json to --trace FILE when given.
bool copyTrace(const CommandLine& cmd, const std::string& runDir, const std::string& caseName,
               std::ostream& err);

// Prints each step of a pipeline run (its diagnostics to `diagnostics`, one line to `steps`)
// and returns the exit code: 2 when the options named something that does not exist, 1 when a
// step failed or was cancelled, else 0.
int reportSteps(const PipelineResult& result, std::ostream& steps, std::ostream& diagnostics);

int runValidate(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runRun(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runCompare(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runVerify(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runGenerate(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runExport(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runCheckPackage(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runOnnxInfer(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runInspect(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runRedeploy(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runDeploy(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runNew(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runImport(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runBackends(const CommandLine& cmd, std::ostream& out, std::ostream& err);

} // namespace ptowb::cli
