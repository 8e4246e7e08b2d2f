#pragma once

// Import: an existing kernel file becomes a project. The file's jit kernels are listed without
// running anything; importing one runs the file's own host and test code in a kernel worker of
// its own (the user's explicit, trusted act), records the kernel's calls and proposes op.json,
// reference.py and cases from them (import_proposal.h). The new project holds the author's file
// as it is, with the modules it imports from its own folder. Import never overwrites: the project
// folder must not exist, or be empty. Errors and what is left to fill in are values; nothing is
// printed.
#include "diag/diagnostic.h"

#include <atomic>
#include <string>
#include <variant>
#include <vector>

namespace ptowb::importer {

struct JitKernel
{
    std::string name;
    int line = 1;
    int col = 1;
    std::vector<std::string> params;
    std::string inside; // the top-level function (or class) it is defined in; "" at the top level
};

// The @pypto.frontend.jit functions of the file, at its top level and inside its functions, read
// from its text (nothing runs), or the error (unreadable file, syntax error) at its line.
std::variant<std::vector<JitKernel>, Diagnostic> listJitKernels(const std::string& file);

struct ImportOptions
{
    std::string file;     // the kernel file
    std::string function; // the kernel to import; "" for the file's only one
    std::string outDir;   // the project's folder: must not exist, or be empty
    std::string name;     // the op's name; "" derives it from the kernel's
    double seconds = 300; // how long the file's own code may run
};

struct ImportResult
{
    bool ok = false;
    Diagnostics diagnostics; // the error; what is left to fill in (op.json lines); the file's
                             // own failures while it ran (its lines)
    std::string projectDir;
    std::string kernel;
    std::vector<std::string> inferred; // what was inferred, a line each
    bool referenceFromGolden = false;
    int cases = 0;
    std::string log; // what the file printed while it ran
};

ImportResult importKernel(const ImportOptions& options, const std::atomic<bool>* cancel = nullptr);

} // namespace ptowb::importer
