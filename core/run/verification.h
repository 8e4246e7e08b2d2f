#pragma once

#include "run/backend.h"
#include "tensor/compare.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ptowb {

struct RunOptions
{
    std::string caseFilter; // empty: every case
    std::string runDir;     // the run folder to write
    std::function<void(int done, int total, const std::string& caseName)> progress;
    const std::atomic<bool>* cancel = nullptr;
    // A case whose working set (see caseWorkingSet) is larger is refused before anything is
    // allocated; 0: half of this machine's RAM.
    std::uint64_t memoryLimitBytes = 0;
};

// The memory a case needs while it runs, estimated from its shapes before anything is made:
// kWorkingSetFactor times its tensors (inputs and outputs), for the workbench's copy, the
// worker's, and the intermediates of the reference or kernel (measured at 3.4x the inputs for
// the reference and 4.9x for the simulator).
inline constexpr double kWorkingSetFactor = 5;
struct WorkingSet
{
    std::uint64_t tensorBytes = 0;
    double estimateBytes = 0;
};
WorkingSet caseWorkingSet(std::span<const rules::TensorInfo> inputs,
                          std::span<const InferredOutput> outputs);
// Half of the physical RAM.
std::uint64_t defaultMemoryLimit();

struct CaseRun
{
    std::string caseName;
    std::string dir;
    RunRecord record;
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    bool ok() const { return record.status == "ok"; }
};

// Runs every (selected) case on one backend, writing <runDir>/<case>/ for each.
std::vector<CaseRun> runCases(const OpSpec& spec, const std::string& projectDir, Backend& backend,
                              const RunOptions& options);

struct OutputCheck
{
    std::string name;
    Comparison comparison;
    Criteria criteria;
    Verdict verdict;
};

struct CaseVerification
{
    std::string caseName;
    std::string error;       // the case could not be compared (a backend failed)
    Diagnostics diagnostics; // that failure at its kernel or reference line, when known
    std::string stderrTail;
    double seconds = 0;
    std::vector<OutputCheck> outputs;
    // Results the case's test checked no value of (op.json's `"expected": {"a": null}`): not
    // compared, and named in the report.
    std::vector<std::string> unchecked;
    // The target's run.json "cost" (its cost model's cycles), when it has one.
    nlohmann::ordered_json cost;
    // The target produces no values (pypto-sim): nothing was compared, and the case passes
    // when it ran.
    bool costOnly = false;
    bool pass() const;
};

struct VerificationReport
{
    std::string op;
    std::string reference = "ref";
    std::string target;
    std::string referenceRunDir;
    std::string targetRunDir;
    std::vector<CaseVerification> cases;
    bool cancelled = false;
    bool pass() const;
};

// Runs the reference and the target on the same inputs and compares every output under the
// op's tolerance. `runsRoot` receives one run folder per backend. A target that produces no
// values (Backend::producesValues) runs alone: its cases report their cost and compare nothing.
VerificationReport verify(const OpSpec& spec, const std::string& projectDir, Backend& reference,
                          Backend& target, const std::string& runsRoot, RunOptions options);

} // namespace ptowb
