#pragma once

#include "diag/diagnostic.h"
#include "project/project.h"
#include "run/verification.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace ptowb {

// validate -> generate -> verify -> export -> deploy: what Redeploy does, in the app and in
// `ptowb-cli redeploy`. Steps whose inputs (op.json, kernel, reference, the verify target)
// have not changed since they last succeeded are skipped; a failing step stops the pipeline
// and keeps everything earlier.
enum class PipelineStep
{
    Validate,
    Generate,
    Verify,
    Export,
    Deploy
};
const char* stepName(PipelineStep step);

struct StepResult
{
    enum class Status
    {
        Done,
        Unchanged,
        Failed,
        Cancelled,
        NotRun
    };
    PipelineStep step = PipelineStep::Validate;
    Status status = Status::NotRun;
    std::string message;
    Diagnostics diagnostics;
    double seconds = 0;
    // The options named something that does not exist (a backend, a case, a deploy target).
    bool badRequest = false;
};
const char* statusName(StepResult::Status status); // "done", "FAILED", ...
// "verify: done (1.25 s) every case passes": how the CLI and the app's Log report a step.
std::string stepSummary(const StepResult& step);

struct PipelineOptions
{
    std::string against = "sim"; // the verify target: sim or a runner
    std::string deployTarget;    // empty: the only configured target, or stop after export
    PipelineStep stopAfter = PipelineStep::Deploy; // Verify: validate, generate and verify only
    SimRunOptions sim; // no platform: the op's first target soc when a platform file has its name,
                       // else generic
    std::string caseFilter;   // verify this case only
    std::string glueFolder;   // empty: the project's .ptowb/glue
    std::string exportFolder; // empty: <project>/packages
    bool archive = true;      // export <name>-<version>.tar.gz beside the package folder
    bool exportFailing =
        false; // export even when verify fails (the step still reports the failure)
    std::function<void(PipelineStep step, const std::string& message)> progress;
    std::function<void(const StepResult& step)> stepFinished; // as each step ends, in order
    const std::atomic<bool>* cancel = nullptr;
};

struct PipelineResult
{
    std::vector<StepResult> steps;
    std::string packageFolder;
    std::string archivePath;
    VerificationReport verification; // when the verify step ran
    std::string tracePath;           // the first case's simulator trace, when there is one
    bool ok() const;
};

PipelineResult runPipeline(const Project& project, const PipelineOptions& options);

} // namespace ptowb
