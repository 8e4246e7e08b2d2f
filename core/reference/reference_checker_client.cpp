#include "interpreter/child_process.h"
#include "reference/reference_check.h"
#include "reference/reference_checker.h"
#include "reference/reference_verdict_cache.h"
#include "worker_client/worker_client.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <mutex>

namespace ptowb {

namespace {

namespace fs = std::filesystem;

// Past its own limit the checker answers; this much more is for starting it (loading
// libtorch on a busy machine) before it is killed.
constexpr double kStartSeconds = 5;
constexpr std::size_t kRemembered = 8;

struct Verdict
{
    std::string request;
    Diagnostics diagnostics; // on "reference.py"
};

std::mutex g_mutex;
std::deque<Verdict> g_verdicts; // newest first

Diagnostic problem(const std::string& file, std::string code, std::string message)
{
    Diagnostic d;
    d.file = file;
    d.line = d.endLine = 1;
    d.col = 1;
    d.endCol = 2;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

Diagnostics onFile(Diagnostics diagnostics, const std::string& fileName)
{
    for (Diagnostic& d : diagnostics)
        d.file = fileName;
    return diagnostics;
}

std::optional<Diagnostics> remembered(const std::string& request)
{
    std::lock_guard lock(g_mutex);
    for (const Verdict& v : g_verdicts)
        if (v.request == request) return v.diagnostics;
    return std::nullopt;
}

void remember(const std::string& request, const Diagnostics& diagnostics)
{
    std::lock_guard lock(g_mutex);
    g_verdicts.push_front({request, diagnostics});
    if (g_verdicts.size() > kRemembered) g_verdicts.pop_back();
}

// What the checker says about the request, or why it said nothing.
Diagnostics askChecker(const std::string& checker, const std::string& request,
                       const std::atomic<bool>* cancel)
{
    if (checker.empty())
        return {problem("reference.py", "reference.engine",
                        "the reference checker (ptowb-reference-check) was not found; set "
                        "PTOWB_REFERENCE_CHECKER to its path")};
    const std::string seconds = std::to_string(int(worker::kCheckSeconds));
    const interpreter::ChildResult r =
        interpreter::runChild({checker, "--seconds", seconds, "--memory-limit-mb",
                               std::to_string(worker::WorkerClient::defaultMemoryLimitMb())},
                              worker::kCheckSeconds + kStartSeconds, &request, cancel);
    if (r.cancelled)
        return {
            problem("reference.py", "reference.cancelled", "the reference check was cancelled")};
    if (!r.startError.empty())
        return {problem("reference.py", "reference.engine",
                        "the reference checker " + checker + " cannot start: " + r.startError)};
    if (r.timedOut)
        return {problem("reference.py", "reference.limit",
                        "the reference check did not finish within " +
                            std::to_string(int(worker::kCheckSeconds + kStartSeconds)) + " s")};
    if (r.exitCode == 0)
        if (auto diagnostics = parseReferenceCheckAnswer(r.out, "reference.py"))
            return *diagnostics;
    std::string why = r.err.substr(0, 2000);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' '))
        why.pop_back();
    return {problem("reference.py", "reference.engine",
                    "the reference checker failed (" +
                        (r.signal ? "signal " + std::to_string(r.signal)
                                  : "exit status " + std::to_string(r.exitCode)) +
                        ")" + (why.empty() ? "" : ": " + why))};
}

bool has(const Diagnostics& diagnostics, const char* code)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [&](const Diagnostic& d) { return d.code == code; });
}

// Whether the verdict is what compiling the reference says, and so the same on every later
// check: a limit depends on how busy the machine was, a crash is worth finding afresh (the
// bounded checker's work), and an engine or cancel error is no verdict at all.
bool compiledVerdict(const Diagnostics& diagnostics)
{
    for (const char* code :
         {"reference.engine", "reference.cancelled", "reference.limit", "reference.crash"})
        if (has(diagnostics, code)) return false;
    return true;
}

} // namespace

std::string referenceCheckerPath()
{
    if (const char* env = std::getenv("PTOWB_REFERENCE_CHECKER"); env && *env) return env;
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed =
            exe.parent_path().parent_path() / "lib" / "ptowb" / "ptowb-reference-check";
        if (fs::exists(installed, ec)) return installed.string();
    }
#ifdef PTOWB_REFERENCE_CHECKER_BUILD_PATH
    if (fs::exists(PTOWB_REFERENCE_CHECKER_BUILD_PATH, ec))
        return PTOWB_REFERENCE_CHECKER_BUILD_PATH;
#endif
    return {};
}

namespace {

Diagnostics checkReferenceOnce(const OpSpec& spec, const std::string& source,
                               const std::string& fileName, const std::atomic<bool>* cancel);

// A reference still to be written (import's TODO) runs for no case when every case gives the
// expected values of all its results: verify can go on, so it is a warning then. Export, whose
// package runs the reference, refuses it (package_export.cpp).
Diagnostics todoWhileCasesExpectValues(const OpSpec& spec, Diagnostics diagnostics)
{
    const std::vector<std::string> results = spec.resultNames();
    const bool everyCase =
        !spec.cases.empty() &&
        std::all_of(spec.cases.begin(), spec.cases.end(),
                    [&](const CaseSpec& c) { return c.expectsEveryResult(results); });
    if (!everyCase) return diagnostics;
    for (Diagnostic& d : diagnostics)
        if (d.code == "reference.todo" && d.severity == Severity::Error) {
            d.severity = Severity::Warning;
            d.message += " (until it is, verify compares with the expected values op.json's "
                         "cases give; export needs it)";
        }
    return diagnostics;
}

} // namespace

Diagnostics checkReferenceBounded(const OpSpec& spec, const std::string& source,
                                  const std::string& fileName, const std::atomic<bool>* cancel)
{
    return todoWhileCasesExpectValues(spec, checkReferenceOnce(spec, source, fileName, cancel));
}

namespace {

Diagnostics checkReferenceOnce(const OpSpec& spec, const std::string& source,
                               const std::string& fileName, const std::atomic<bool>* cancel)
{
    // The text checks are the checker's first step too: text they refuse needs no process.
    Diagnostics text = checkReferenceSource(source, fileName);
    if (hasErrors(text)) return text;
    const std::string request = referenceCheckRequest(spec, source);
    if (auto known = remembered(request)) return onFile(std::move(*known), fileName);
    const std::string checker = referenceCheckerPath();
    const std::string key = checker.empty() ? std::string() : referenceVerdictKey(checker, request);
    if (!key.empty())
        if (auto kept = loadReferenceVerdict(key)) {
            remember(request, *kept);
            return onFile(std::move(*kept), fileName);
        }
    Diagnostics diagnostics = askChecker(checker, request, cancel);
    // A checker that could not start may start next time; a limit is remembered, or every pause
    // in typing would spend it again.
    if (!has(diagnostics, "reference.engine") && !has(diagnostics, "reference.cancelled"))
        remember(request, diagnostics);
    if (!key.empty() && compiledVerdict(diagnostics)) storeReferenceVerdict(key, diagnostics);
    return onFile(std::move(diagnostics), fileName);
}

} // namespace

} // namespace ptowb
