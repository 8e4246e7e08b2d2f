#pragma once

#include "reference/reference_program.h"
#include "run/runner_config.h"
#include "run/sim_run_options.h"
#include "run_folder/run_folder.h"

#include <atomic>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>
#include <vector>

namespace ptowb {

// Turns (op, case) into output tensors, using a case folder already holding inputs/,
// params.json and a pending run.json.
class Backend
{
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    // False for a backend that only measures (pypto-sim: PyPTO's cost model writes no values):
    // verify then compares nothing and reports its cost.
    virtual bool producesValues() const { return true; }
    // Fills `outputs` and returns the finished record (status ok or why not).
    virtual RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                          const std::vector<rules::Value>& params, const std::string& caseDir,
                          RunRecord record, std::vector<Tensor>& outputs,
                          const std::atomic<bool>* cancel) = 0;
};

// For the backends the kernel worker runs (ref, sim): the run.json status of an answer that is
// not ok (timeout, cancelled, crashed or error), and the outputs it left in the case folder,
// read back with the record ending ok or with why not.
std::string workerFailureStatus(const nlohmann::json& answer);
RunRecord readWorkerOutputs(const std::string& caseDir, const OpSpec& spec, RunRecord record,
                            std::vector<Tensor>& outputs, const std::set<std::string>& absent = {});
// The request's "input_shapes": what the worker compares each input file's header with before
// reading it.
nlohmann::json inputShapesJson(const RunRecord& record);

struct ProcessOutcome;
// For the backends that run a process (runners, the real PyPTO): the outcome's duration, exit
// code and stderr tail into `record`; false, with the record's status and error saying why
// (`who` "did not finish within ...", "crashed", ...), when the process did not finish.
bool recordProcessOutcome(const ProcessOutcome& outcome, const std::string& who,
                          double timeoutSeconds, RunRecord& record);

// What the `ref` backend runs: the reference and the description it binds to, as text.
struct ReferenceSources
{
    std::string reference;
    std::string referenceFile; // reference.py, for file:line in errors
    std::string opJson;
    std::string opJsonFile;
    std::string projectDir;
};

// `ref`: the CPU reference, run by the kernel worker process (worker/reference_case.h), so a
// reference that never returns stops at the case's time limit or on Cancel.
class ReferenceBackend : public Backend
{
public:
    ReferenceBackend(ReferenceSources sources, double timeoutSeconds)
        : m_sources(std::move(sources)), m_timeoutSeconds(timeoutSeconds)
    {
    }
    std::string name() const override { return "ref"; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                  const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs,
                  const std::atomic<bool>* cancel) override;

private:
    ReferenceSources m_sources;
    double m_timeoutSeconds;
};

// A runner from runners.json: a separate process, given the case folder.
class ExternalBackend : public Backend
{
public:
    ExternalBackend(RunnerConfig runner, std::string projectDir)
        : m_runner(std::move(runner)), m_projectDir(std::move(projectDir))
    {
    }
    std::string name() const override { return m_runner.name; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                  const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs,
                  const std::atomic<bool>* cancel) override;

private:
    RunnerConfig m_runner;
    std::string m_projectDir;
};

// A project's files as one read gave them, so the bytes that were validated and hashed are the
// bytes that run (the backends never open the files again).
struct ProjectTexts
{
    std::string dir;
    std::string opJson;
    std::string kernel;
    std::string reference;
};

struct BackendChoice
{
    std::unique_ptr<Backend> backend; // null when it cannot be made
    Diagnostics diagnostics;          // e.g. reference.py does not compile
    std::string error;                // e.g. no such runner
};

// What verify can run the kernel with, and whether it can here: the app's and `ptowb-cli
// backends`' list.
struct VerifyTarget
{
    std::string name;           // what --against and makeBackend take
    std::string description;    // "the built-in simulator", "runner from runners.json", ...
    std::string unavailable;    // why it cannot run here (the interpreter, no NPU); "" when it can
    bool producesValues = true; // false: verify compares nothing and reports the cost only
};

// The built-in simulator, the real PyPTO (pypto-sim, npu) in the chosen Python interpreter
// (probed, so not for the GUI thread), and every configured runner, in that order.
std::vector<VerifyTarget> verifyTargets(const RunnerConfigs& runners);

// "ref", "sim" (the built-in simulator, with `simOptions`), "pypto-sim" or "npu" (the real PyPTO
// in the chosen interpreter, run/pypto_backend.h) or the name of a configured runner.
BackendChoice makeBackend(const std::string& name, const OpSpec& spec, const ProjectTexts& texts,
                          const RunnerConfigs& runners, const SimRunOptions& simOptions = {});

} // namespace ptowb
