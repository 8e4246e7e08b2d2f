// ptowb-reference-check: compiles a reference in a forked process per attempt, so that a crash
// while compiling leaves this process free to find the statement that caused it.
#include "reference/reference_checker.h"
#include "reference/reference_program.h"
#include "worker_client/worker_client.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ptowb {

namespace {

using Clock = std::chrono::steady_clock;

// reference.py is at most 4 MiB (a description error beyond, spec/source_check.cpp); and room.
constexpr std::size_t kMaxRequest = std::size_t(16) << 20;

struct Limits
{
    double seconds = 10;
    long long memoryMb = 0; // 0: none
};

struct Outcome
{
    enum class Kind
    {
        Done,    // compiled (or not) with diagnostics
        Crashed, // the compiling process died of `signal`
        Limit,   // past the time limit
        Failed   // no process to compile in
    };
    Kind kind = Kind::Failed;
    Diagnostics diagnostics;
    int signal = 0;
    std::string why;
};

void writeAll(int fd, const std::string& text)
{
    for (std::size_t written = 0; written < text.size();) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0) return;
        written += std::size_t(n);
    }
}

// Compiles `source` in a forked process with the CPU limit, waiting until `deadline`.
Outcome compileInChild(const OpSpec& spec, const std::string& source, Clock::time_point deadline,
                       const Limits& limits)
{
    Outcome outcome;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        outcome.why = "cannot create a pipe";
        return outcome;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        outcome.why = std::string("cannot fork: ") + std::strerror(errno);
        return outcome;
    }
    if (pid == 0) {
        close(fds[0]);
        // Ends with the checker, should the workbench kill it first.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        const auto cpu = rlim_t(std::ceil(limits.seconds));
        const rlimit limit{cpu, cpu + 1};
        setrlimit(RLIMIT_CPU, &limit);
        const auto loaded = ReferenceProgram::load(spec, source, "reference.py");
        writeAll(fds[1], referenceCheckAnswer(loaded.diagnostics));
        _exit(0); // no static destructors of libtorch in a fork
    }
    close(fds[1]);
    std::string answer;
    bool timedOut = false;
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n <= 0) break;
        answer.append(buffer, std::size_t(n));
    }
    close(fds[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut ||
        (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))) {
        outcome.kind = Outcome::Kind::Limit;
        return outcome;
    }
    if (WIFSIGNALED(status)) {
        outcome.kind = Outcome::Kind::Crashed;
        outcome.signal = WTERMSIG(status);
        return outcome;
    }
    if (auto diagnostics = parseReferenceCheckAnswer(answer, "reference.py")) {
        outcome.kind = Outcome::Kind::Done;
        outcome.diagnostics = std::move(*diagnostics);
        return outcome;
    }
    outcome.why = "the compiling process ended without an answer";
    return outcome;
}

// The first line of the statement whose compiling crashes: the source cut after fewer and
// fewer statements, halving the range each time, until the time runs out. 0 when the crash is
// outside every function body (or no compile said anything).
int crashingStatement(const OpSpec& spec, const std::string& source, Clock::time_point deadline,
                      const Limits& limits)
{
    const std::vector<int> lines = referenceStatementLines(source);
    if (lines.empty()) return 0;
    auto crashes = [&](int line) -> std::optional<bool> {
        const Outcome o = compileInChild(spec, cutReferenceAfter(source, line), deadline, limits);
        if (o.kind == Outcome::Kind::Crashed) return true;
        if (o.kind == Outcome::Kind::Done) return false;
        return std::nullopt;
    };
    const auto bodiesOnly = crashes(0);
    if (!bodiesOnly || *bodiesOnly) return 0;
    // The source cut after lines[lo] compiles, cut after lines[hi] crashes (hi: all of it).
    std::ptrdiff_t lo = -1, hi = std::ptrdiff_t(lines.size()) - 1;
    while (hi - lo > 1) {
        const std::ptrdiff_t mid = (lo + hi) / 2;
        const auto c = crashes(lines[std::size_t(mid)]);
        if (!c) break;
        (*c ? hi : lo) = mid;
    }
    return lines[std::size_t(hi)];
}

Diagnostic at(int line, const std::string& source, std::string code, std::string message)
{
    Diagnostic d;
    d.file = "reference.py";
    d.line = d.endLine = std::max(line, 1);
    d.col = 1;
    std::size_t start = 0; // of the line
    for (int k = 1; k < line && start != std::string::npos; ++k) {
        const std::size_t newline = source.find('\n', start);
        start = newline == std::string::npos ? newline : newline + 1;
    }
    if (line > 0 && start != std::string::npos)
        if (const std::size_t first = source.find_first_not_of(" \t", start);
            first != std::string::npos)
            d.col = int(first - start) + 1;
    d.endCol = d.col + 1;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

} // namespace

int runReferenceChecker(int argc, char** argv)
{
    Limits limits;
    for (int k = 1; k + 1 < argc; k += 2) {
        const std::string flag = argv[k];
        if (flag == "--seconds")
            limits.seconds = std::max(0.1, std::atof(argv[k + 1]));
        else if (flag == "--memory-limit-mb")
            limits.memoryMb = std::atoll(argv[k + 1]);
    }
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(limits.seconds));
    if (limits.memoryMb > 0) {
        const rlim_t bytes = rlim_t(limits.memoryMb) << 20;
        const rlimit limit{bytes, bytes};
        setrlimit(RLIMIT_AS, &limit);
    }
    std::string text;
    char buffer[65536];
    for (ssize_t n; (n = ::read(0, buffer, sizeof buffer)) > 0 && text.size() <= kMaxRequest;)
        text.append(buffer, std::size_t(n));
    if (text.size() > kMaxRequest) {
        std::fprintf(stderr, "ptowb-reference-check: the request is larger than %zu bytes\n",
                     kMaxRequest);
        return 2;
    }
    auto request = parseReferenceCheckRequest(text);
    if (auto* e = std::get_if<std::string>(&request)) {
        std::fprintf(stderr, "ptowb-reference-check: %s\n", e->c_str());
        return 2;
    }
    const auto& [spec, source] = std::get<ReferenceCheckRequest>(request);
    // Loads the engine (libtorch) once, before forking: every attempt starts with it loaded.
    ReferenceProgram::compilationCount();
    const Outcome outcome = compileInChild(spec, source, deadline, limits);
    Diagnostics diagnostics;
    const std::string seconds = std::to_string(int(std::lround(limits.seconds)));
    switch (outcome.kind) {
    case Outcome::Kind::Done:
        diagnostics = outcome.diagnostics;
        break;
    case Outcome::Kind::Limit:
        diagnostics.push_back(at(
            1, source, "reference.limit",
            "compiling the reference took longer than the reference check's limit of " + seconds +
                " s: TorchScript evaluates constant expressions (such as 'a'.ljust(n)) while it "
                "compiles"));
        break;
    case Outcome::Kind::Crashed: {
        const int line = crashingStatement(spec, source, deadline, limits);
        diagnostics.push_back(
            at(line, source, "reference.crash",
               "compiling " + std::string(line > 0 ? "this statement" : "the reference") +
                   " crashed libtorch (" + worker::describeSignal(outcome.signal) +
                   "): TorchScript evaluates constant arithmetic while it compiles, and so would "
                   "every process that loads the op"));
        break;
    }
    case Outcome::Kind::Failed:
        std::fprintf(stderr, "ptowb-reference-check: %s\n", outcome.why.c_str());
        return 3;
    }
    const std::string answer = referenceCheckAnswer(diagnostics);
    std::fwrite(answer.data(), 1, answer.size(), stdout);
    std::fflush(stdout);
    return 0;
}

} // namespace ptowb
