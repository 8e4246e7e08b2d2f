#pragma once

// The project import proposes for one kernel of a file, from what the recording of the file's
// own calls found (python/_ptowb_import.py in core/worker answers it): op.json, reference.py, the
// files to copy, and what is left to fill in — each at the op.json value it concerns. Nothing
// here runs or writes anything. Standard C++ only.
#include "diag/diagnostic.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ptowb::importer {

// A file of the new project: the author's kernel file and the modules it imports from its own
// folder (copied as they are), or a recorded case input.
struct ProjectFile
{
    std::string source;  // absolute path
    std::string project; // path inside the project
};

// Something left to fill in, at the op.json value named by `pointer` ("" for op.json's top).
struct FillIn
{
    std::string pointer;
    Severity severity = Severity::Warning;
    std::string code; // "import.output-rule", ...
    std::string message;
};

struct Proposal
{
    std::string error; // nothing can be proposed (no jit kernel, several and none chosen, ...)
    int errorLine = 1;
    int errorCol = 1;
    std::string kernel; // the kernel function the project is for
    nlohmann::ordered_json op;
    std::string reference; // reference.py
    bool referenceFromGolden = false;
    std::vector<ProjectFile> files;
    std::vector<FillIn> fillIns;
    std::vector<std::string> inferred; // what was inferred, one line each, for the summary
};

// Why reference.py, as proposed from the file's golden, cannot serve the op ("" when it can).
using ReferenceCheck =
    std::function<std::string(const nlohmann::ordered_json& op, const std::string& reference)>;

// `kernelFile` is the author's file (absolute); `function` the kernel to import ("" picks the
// only one); `name` the op's name ("" derives it from the kernel's name). A golden that
// `checkReference` rejects becomes a TODO, and the cases check the values the test expected.
Proposal propose(const nlohmann::json& recording, const std::string& kernelFile,
                 const std::string& function, const std::string& name,
                 const ReferenceCheck& checkReference = {});

// The jit kernels the recording found, by name.
std::vector<std::string> recordedKernels(const nlohmann::json& recording);

} // namespace ptowb::importer
