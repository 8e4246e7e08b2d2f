#pragma once

#include "diag/diagnostic.h"
#include "spec/inference.h"
#include "spec/op_spec.h"
#include "tensor/tensor.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace ptowb {

// What run.json records about one case run by one backend.
struct RunRecord
{
    std::string backend;
    std::string caseName;
    std::string status = "pending"; // pending, ok, error, timeout, crashed, cancelled
    int exitCode = 0;
    double durationSeconds = 0;
    double costEstimateUs = -1; // the simulator's estimate for the target platform; < 0: none
    // run.json's "cost": whose cost model counted the case's device cycles ({"source": "ptowb"
    // or "pypto 0.2.0", "total_cycles": N, "pipes": {...}, ...}); null when none did.
    nlohmann::ordered_json cost;
    std::string error;
    Diagnostics diagnostics; // where in a project file the case failed, when that is known
    std::string stderrTail;
    // Which Python ran the case in the kernel worker (its greeting: executable, python, torch,
    // pypto, torch_npu); null for a backend that is not the worker.
    nlohmann::json interpreter;
    std::vector<InferredOutput> inputs; // name, shape and dtype of every input
    // What the rules say the results must be: the outputs, then the mutated inputs (written to
    // outputs/<input>.npy with their value after the call).
    std::vector<InferredOutput> expectedOutputs;
};

// The one writer and reader of the run-folder protocol: <run>/<case>/ holds inputs/<name>.npy,
// params.json, outputs/<name>.npy and run.json. External runners read the first two and
// run.json's "outputs" (the shapes and dtypes they must write), and write outputs/.
namespace runfolder {

std::string
newRunId(const std::string& backend); // "20261129-234501-ref", unique within the process
std::string caseDir(const std::string& runDir, const std::string& caseName);
std::string inputPath(const std::string& caseDir, const std::string& input);
std::string outputPath(const std::string& caseDir, const std::string& output);
std::string outputsDir(const std::string& caseDir);
std::string tracePath(const std::string& caseDir); // the simulator's cost trace, trace.json

// Creates the case folder and writes inputs, params.json and a pending run.json.
std::string prepareCase(const std::string& dir, const OpSpec& spec,
                        const std::vector<Tensor>& inputs, const std::vector<rules::Value>& params,
                        const RunRecord& record);
std::string writeOutputs(const std::string& dir, const OpSpec& spec,
                         const std::vector<Tensor>& outputs);
std::string writeRecord(const std::string& dir, const RunRecord& record);

// Reads outputs/<name>.npy for every output and checks them against the expected shapes
// and dtypes; the error names the output and what is wrong. A result in `absent` that was not
// written is an empty tensor (a case's unchecked result, which no run of op.json's values gives).
std::variant<std::vector<Tensor>, std::string>
readOutputs(const std::string& dir, const OpSpec& spec, const std::vector<InferredOutput>& expected,
            const std::set<std::string>& absent = {});

// "" when `t` is what the rules expect; otherwise "float16[1, 1], but the rules say float16[4,
// 32]".
std::string mismatchWithRules(const Tensor& t, const InferredOutput& expected);

// The simulator's captured intermediates: <case>/captures/L<line>_<op>@<k>.npy, the value the
// k-th execution of a kernel line computed (its last op's result). A long loop keeps its first
// iterations and its last, so the numbers may skip.
struct CaptureFile
{
    int line = 0;
    std::string name; // the op
    int execution = 1;
    std::string path;
};
// Removes all but the `keep` most recent run folders (by modification time) under runsRoot;
// only folders named like run ids are touched. Returns how many were removed.
int pruneRuns(const std::string& runsRoot, std::size_t keep);
// The "cost" run.json of a case folder records (RunRecord::cost); null when it has none or
// cannot be read.
nlohmann::ordered_json readCost(const std::string& caseDir);

// The case folder <run>/<caseName> of the most recent run (by its id's time) under runsRoot made
// by `backend` ("pypto-sim": a run of it, or the target of a verify against it) that holds a
// run.json; "" when there is none. Symbolic links are not followed.
std::string latestCaseDir(const std::string& runsRoot, const std::string& backend,
                          const std::string& caseName);
std::string capturePath(const std::string& caseDir, int line, const std::string& name,
                        int execution);
std::vector<CaptureFile> listCaptures(const std::string& caseDir); // by line, then execution
nlohmann::ordered_json tensorInfoJson(const std::string& name,
                                      const std::vector<std::int64_t>& shape, DType dtype);

} // namespace runfolder

} // namespace ptowb
