#include "worker_client/worker_client.h"

#include "interpreter/interpreter.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ptowb::worker {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kLifelineFd = 3; // in the launcher

// The longest answer line read: answers carry the kernel's log (capped at 2 MiB) and the cost
// trace (capped at cost::kMaxTraceEvents); anything longer is not the worker's protocol.
constexpr std::size_t kMaxAnswerBytes = std::size_t(256) << 20;
constexpr const char* kTooLong = "the kernel worker sent an answer of more than 256 MiB";
// How long a worker whose output closed has to exit before it is stopped.
constexpr double kExitGraceSeconds = 2;

json stopped(const char* code, std::string message, const json& answer)
{
    json out = {{"status", "error"},
                {"code", code},
                {"message", std::move(message)},
                {"line", 1},
                {"col", 1}};
    // The worker answered the interrupt with the line it was running: keep that position.
    if (answer.is_object() && answer.value("code", "") == "kernel.interrupted")
        for (const char* key : {"line", "col", "end_line", "end_col", "log", "traceback"})
            if (answer.contains(key)) out[key] = answer[key];
    return out;
}

std::string describeExit(int status)
{
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        if (sig == SIGKILL) return "the kernel worker was killed (SIGKILL; out of memory?)";
        return "the kernel worker crashed (" + describeSignal(sig) + ")";
    }
    if (WIFEXITED(status))
        return "the kernel worker exited with status " + std::to_string(WEXITSTATUS(status));
    return "the kernel worker stopped";
}

struct Choice
{
    std::mutex mutex;
    std::string python;
    std::function<void(const std::string&)> progress;
};

Choice& choice()
{
    static Choice c;
    return c;
}

json failedStart(const char* code, std::string message)
{
    return {{"status", "error"},
            {"code", code},
            {"message", std::move(message)},
            {"line", 1},
            {"col", 1}};
}

} // namespace

void WorkerClient::choosePython(const std::string& python)
{
    std::lock_guard lock(choice().mutex);
    choice().python = python;
}

std::string WorkerClient::chosenPython()
{
    std::lock_guard lock(choice().mutex);
    return choice().python;
}

void WorkerClient::setProgressHandler(std::function<void(const std::string&)> handler)
{
    std::lock_guard lock(choice().mutex);
    choice().progress = std::move(handler);
}

nlohmann::json WorkerClient::interpreter() const
{
    std::lock_guard lock(m_mutex);
    return m_ready;
}

std::string describeSignal(int signal)
{
    switch (signal) {
    case SIGFPE:
        return "SIGFPE, an arithmetic fault such as the smallest integer divided by -1";
    case SIGSEGV:
        return "SIGSEGV, a segmentation fault: a memory access out of bounds";
    case SIGBUS:
        return "SIGBUS, a memory access out of bounds";
    case SIGABRT:
        return "SIGABRT, aborted";
    case SIGILL:
        return "SIGILL, an illegal instruction";
    default:
        return "signal " + std::to_string(signal);
    }
}

std::string kernelWorkerPath()
{
    if (const char* env = std::getenv("PTOWB_KERNEL_WORKER"); env && *env) return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed =
            exe.parent_path().parent_path() / "lib" / "ptowb" / "ptowb-kernel-worker";
        if (std::filesystem::exists(installed, ec)) return installed.string();
    }
#ifdef PTOWB_KERNEL_WORKER_BUILD_PATH
    if (std::filesystem::exists(PTOWB_KERNEL_WORKER_BUILD_PATH, ec))
        return PTOWB_KERNEL_WORKER_BUILD_PATH;
#endif
    return {};
}

WorkerClient::~WorkerClient()
{
    stop();
}

WorkerClient& WorkerClient::shared()
{
    static WorkerClient client;
    return client;
}

WorkerClient& WorkerClient::forChecks()
{
    static WorkerClient client;
    return client;
}

std::int64_t WorkerClient::defaultMemoryLimitMb()
{
    const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0) return 8192;
    return std::int64_t(pages) * size / 2 / (1 << 20);
}

nlohmann::json WorkerClient::start(const std::atomic<bool>* cancel)
{
    const std::string exe = kernelWorkerPath();
    if (exe.empty())
        return failedStart("sim.worker", "the kernel worker (ptowb-kernel-worker) was not found; "
                                         "set PTOWB_KERNEL_WORKER to its path");
    // The lifeline: the worker's launcher ends the worker and everything its kernels started when
    // this end closes, which it does when this process dies, however it dies. Only the launcher
    // gets the other end (as fd 3); every descriptor here is close-on-exec for other children.
    int in[2], out[2], life[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return failedStart("sim.worker", "cannot create a pipe for the kernel worker");
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return failedStart("sim.worker", "cannot create a pipe for the kernel worker");
    }
    if (pipe2(life, O_CLOEXEC) != 0) {
        for (int fd : {in[0], in[1], out[0], out[1]})
            close(fd);
        return failedStart("sim.worker", "cannot create a pipe for the kernel worker");
    }
    // The launcher's ends go to fds 0, 1 and 3; one that already has its number (this process
    // started with stdin closed, say) is moved first, as dup2 onto itself keeps close-on-exec.
    for (int* end : {&in[0], &out[1], &life[0]})
        if (*end <= kLifelineFd) {
            const int moved = fcntl(*end, F_DUPFD_CLOEXEC, kLifelineFd + 1);
            close(*end);
            *end = moved;
        }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, life[0], kLifelineFd);
    const std::string python = interpreter::choosePython(chosenPython());
    std::string arg0 = exe, flag = "--memory-limit-mb",
                value = std::to_string(defaultMemoryLimitMb()), pythonFlag = "--python",
                pythonValue = python, lifelineFlag = "--lifeline-fd",
                lifelineValue = std::to_string(kLifelineFd);
    char* argv[] = {
        arg0.data(),        flag.data(),         value.data(),         pythonFlag.data(),
        pythonValue.data(), lifelineFlag.data(), lifelineValue.data(), nullptr};
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    close(life[0]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        close(life[1]);
        return failedStart("sim.worker", "cannot start " + exe + ": " + std::strerror(rc));
    }
    m_pid = pid;
    m_toWorker = in[1];
    m_fromWorker = out[0];
    m_lifeline = life[1];
    m_pending.clear();
    m_scanned = 0;
    m_python = chosenPython();
    // The worker announces itself once it runs in the interpreter: first, on a new interpreter
    // or torch, progress while its native part is built (minutes, once).
    for (;;) {
        std::string line;
        const Wait wait = readLine(line, 3600, cancel);
        if (wait == Wait::Cancelled) {
            stop();
            return failedStart("sim.cancelled", "cancelled");
        }
        if (wait != Wait::Line) {
            const int status = endLauncher(wait == Wait::Closed ? kExitGraceSeconds : 0);
            stop();
            return failedStart("sim.crashed",
                               wait == Wait::Closed    ? describeExit(status) + " while starting"
                               : wait == Wait::TooLong ? kTooLong
                                                       : "the kernel worker did not start within "
                                                         "an hour");
        }
        const json hello = json::parse(line, nullptr, false);
        const std::string status = hello.is_object() ? hello.value("status", "") : "";
        if (status == "progress") {
            std::function<void(const std::string&)> progress;
            {
                std::lock_guard lock(choice().mutex);
                progress = choice().progress;
            }
            if (progress) progress(hello.value("message", ""));
            continue;
        }
        if (status == "ready") {
            m_ready = hello;
            return nullptr;
        }
        stop();
        if (status == "error") // the launcher's verdict on the interpreter, or the build's
            return failedStart(hello.value("code", "worker.python").c_str(),
                               hello.value("message", "the kernel worker did not start"));
        return failedStart("sim.worker", "the kernel worker sent an unreadable greeting");
    }
}

int WorkerClient::endLauncher(double graceSeconds)
{
    int status = 0;
    if (m_pid <= 0) return status;
    // SIGTERM: the launcher kills the worker and every process below it, then exits; SIGKILL
    // would leave those behind. Ending a few hundred processes takes seconds; a launcher that
    // has not exited after 30 is killed.
    bool asked = false;
    auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(graceSeconds));
    while (waitpid(m_pid, &status, WNOHANG) == 0) {
        if (Clock::now() >= deadline) {
            if (asked) {
                ::kill(m_pid, SIGKILL);
                waitpid(m_pid, &status, 0);
                break;
            }
            ::kill(m_pid, SIGTERM);
            asked = true;
            deadline = Clock::now() + std::chrono::seconds(30);
        }
        ::usleep(1000);
    }
    m_pid = -1;
    return status;
}

void WorkerClient::stop()
{
    endLauncher(0);
    for (int* fd : {&m_toWorker, &m_fromWorker, &m_lifeline}) {
        if (*fd >= 0) close(*fd);
        *fd = -1;
    }
    m_pid = -1;
    m_pending.clear();
    m_scanned = 0;
}

WorkerClient::Wait WorkerClient::readLine(std::string& line, double timeoutSeconds,
                                          const std::atomic<bool>* cancel)
{
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(timeoutSeconds));
    for (;;) {
        // Only what arrived since the last look is searched: reading a long line stays linear.
        if (const auto nl = m_pending.find('\n', m_scanned); nl != std::string::npos) {
            line = m_pending.substr(0, nl);
            m_pending.erase(0, nl + 1);
            m_scanned = 0;
            return Wait::Line;
        }
        m_scanned = m_pending.size();
        if (m_pending.size() > kMaxAnswerBytes) return Wait::TooLong;
        if (cancel && cancel->load()) return Wait::Cancelled;
        if (Clock::now() >= deadline) return Wait::Timeout;
        pollfd p{m_fromWorker, POLLIN, 0};
        const int ready = ::poll(&p, 1, 50); // Cancel is noticed within 50 ms
        if (ready < 0 && errno != EINTR) return Wait::Closed;
        if (ready <= 0) continue;
        char buffer[65536];
        const ssize_t n = ::read(m_fromWorker, buffer, sizeof buffer);
        if (n <= 0) return Wait::Closed;
        m_pending.append(buffer, std::size_t(n));
    }
}

nlohmann::json WorkerClient::call(const nlohmann::json& request, double timeoutSeconds,
                                  const std::atomic<bool>* cancel)
{
    std::lock_guard lock(m_mutex);
    if (m_pid > 0 && m_python != chosenPython()) stop(); // another interpreter was chosen
    if (m_pid <= 0)
        if (json failed = start(cancel); !failed.is_null()) return failed;
    const std::string text = request.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    std::signal(SIGPIPE, SIG_IGN);
    for (std::size_t sent = 0; sent < text.size();) {
        const ssize_t n = ::write(m_toWorker, text.data() + sent, text.size() - sent);
        if (n <= 0) {
            stop();
            return {{"status", "error"},
                    {"code", "sim.crashed"},
                    {"message", "the kernel worker stopped before taking the request"},
                    {"line", 1},
                    {"col", 1}};
        }
        sent += std::size_t(n);
    }
    std::string line;
    const Wait wait = readLine(line, timeoutSeconds, cancel);
    if (wait == Wait::Line) {
        json answer = json::parse(line, nullptr, false);
        if (!answer.is_discarded()) return answer;
        stop();
        return {{"status", "error"},
                {"code", "sim.worker"},
                {"message", "the kernel worker sent an unreadable answer"},
                {"line", 1},
                {"col", 1}};
    }
    if (wait == Wait::Closed || wait == Wait::TooLong) {
        const int status = endLauncher(wait == Wait::Closed ? kExitGraceSeconds : 0);
        stop();
        return {{"status", "error"},
                {"code", wait == Wait::Closed ? "sim.crashed" : "sim.worker"},
                {"message", wait == Wait::Closed
                                ? describeExit(status) + " while running " +
                                      request.value("subject", std::string("the kernel"))
                                : kTooLong},
                {"line", 1},
                {"col", 1}};
    }
    // Interrupt the kernel where it is (Python raises at its current line), then kill it. A
    // reference in TorchScript cannot be interrupted: Cancel gives it a quarter of a second, so
    // it stops within a second of the click; a timeout waits longer for the line it reached.
    ::kill(m_pid, SIGUSR1);
    json answer;
    if (readLine(line, wait == Wait::Cancelled ? 0.25 : 1.0, nullptr) == Wait::Line)
        answer = json::parse(line, nullptr, false);
    else
        stop();
    if (wait == Wait::Cancelled) return stopped("sim.cancelled", "cancelled", answer);
    return stopped("sim.timeout",
                   request.value("subject", std::string("the kernel")) + " did not finish within " +
                       std::to_string(int(timeoutSeconds)) + " s",
                   answer);
}

} // namespace ptowb::worker
