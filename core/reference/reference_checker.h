#pragma once

#include "diag/diagnostic.h"
#include "spec/op_spec.h"

#include <atomic>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ptowb {

// reference.py is compiled for its diagnostics in a process of its own, ptowb-reference-check,
// never in the workbench's: libtorch folds constant arithmetic while it compiles, and folding
// can crash the process (`(-2**63) // -1` is a SIGFPE) or run away (twenty
// `len('a'.ljust(100000000))`: half a minute and gigabytes). The checker is bounded like the
// kernel checker (worker::kCheckSeconds, half of the machine's RAM); a crash is a diagnostic at
// the statement whose compiling crashed, a limit one at line 1.
//
// The text checks (checkReferenceSource) run here first: text they refuse never reaches libtorch.
// Verdicts are remembered by content in this process (the live checks ask again on every pause
// in typing), limits included, so a runaway reference costs its time once per change; those
// reached by compiling are also kept in the user's cache (reference_verdict_cache.h), so that a
// later process checking the same reference starts no checker.
// Once `cancel` is set the checker is killed and the answer is a reference.cancelled error.
Diagnostics checkReferenceBounded(const OpSpec& spec, const std::string& source,
                                  const std::string& fileName,
                                  const std::atomic<bool>* cancel = nullptr);

// Where the checker is: $PTOWB_REFERENCE_CHECKER, <exe>/../lib/ptowb/ptowb-reference-check, or
// where the build put it; "" when none exists.
std::string referenceCheckerPath();

// ptowb-reference-check's main: reads a request on stdin, writes the answer on stdout.
int runReferenceChecker(int argc, char** argv);

// The protocol. A request is a line of JSON with what of the op the reference is checked against
// (the function's name, the inputs, parameters and outputs), then the reference's text as it is;
// an answer is JSON with the diagnostics.
std::string referenceCheckRequest(const OpSpec& spec, const std::string& source);
struct ReferenceCheckRequest
{
    OpSpec spec; // only what the reference is checked against
    std::string source;
};
std::variant<ReferenceCheckRequest, std::string>
parseReferenceCheckRequest(const std::string& text);
std::string referenceCheckAnswer(const Diagnostics& diagnostics);
// Diagnostics on `fileName`, or nothing when `text` is not an answer.
std::optional<Diagnostics> parseReferenceCheckAnswer(const std::string& text,
                                                     const std::string& fileName);

// Finding the statement whose compiling crashed: the first line of every statement directly in
// a function's body, in order, and the source with each body cut after line `line`. A cut body
// ends in `assert False, str(a) + ...` over the names its kept statements assign, so what they
// compute stays in the graph (libtorch drops unused values before folding) and the function
// still compiles whatever it returns. Line numbers are kept.
std::vector<int> referenceStatementLines(const std::string& source);
std::string cutReferenceAfter(const std::string& source, int line);

} // namespace ptowb
