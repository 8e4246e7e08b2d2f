#pragma once

// Talks to the kernel worker process (worker/kernel_worker.h): starts it on first use, keeps it
// warm between cases and runs, and turns a crash, a hang or Cancel into an answer instead of a
// hang of the caller. Standard C++ and POSIX only, so generated op libraries can use it too.
#include <atomic>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace ptowb::worker {

// Where the worker launcher is: $PTOWB_KERNEL_WORKER, <exe>/../lib/ptowb/ptowb-kernel-worker, or
// where the build put it. "" when none exists.
std::string kernelWorkerPath();

// "SIGFPE, an arithmetic fault such as ...": what a signal that ended a process means.
std::string describeSignal(int signal);

// The bounds of a check made while typing: the kernel's syntax in the checks' worker, the
// reference's compile in its checker process (reference/reference_checker.h). Each may take this
// long, in a process limited to WorkerClient::defaultMemoryLimitMb().
inline constexpr double kCheckSeconds = 10;

class WorkerClient
{
public:
    WorkerClient() = default;
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    // The process's warm worker for runs, and a second one for the checks made while typing, so a
    // check never waits for a long run.
    static WorkerClient& shared();
    static WorkerClient& forChecks();

    // Sends one request and returns its answer. Past `timeoutSeconds`, or once `cancel` is set,
    // the kernel is interrupted at its current line, then killed if it does not stop within a
    // second; the answer then has status "error" and code sim.timeout or sim.cancelled.
    nlohmann::json call(const nlohmann::json& request, double timeoutSeconds,
                        const std::atomic<bool>* cancel);

    static std::int64_t defaultMemoryLimitMb(); // half of the machine's RAM

    // The Python interpreter the workers run kernels in, for the whole process (the CLI's
    // --python, the app's setting); "" for PTOWB_PYTHON or the system Python
    // (interpreter/interpreter.h). A change restarts the workers on their next call.
    static void choosePython(const std::string& python);
    static std::string chosenPython(); // as given, "" when none was
    // Called (from the calling thread) with what a worker start is doing that takes a while:
    // building the worker's native part for a new interpreter or torch.
    static void setProgressHandler(std::function<void(const std::string&)> handler);

    // What the running worker announced: {"executable", "python", "torch", "pypto",
    // "torch_npu", "description"}; empty before the first start.
    nlohmann::json interpreter() const;

private:
    // Starts the worker and waits for its greeting; null, or the error answer.
    nlohmann::json start(const std::atomic<bool>* cancel);
    // Waits `graceSeconds` for the launcher to exit, then ends it (and with it the worker and
    // everything below); returns its wait status.
    int endLauncher(double graceSeconds);
    void stop();
    // Reads one answer line; "" with `line` set when one arrived.
    enum class Wait
    {
        Line,
        Timeout,
        Cancelled,
        Closed,
        TooLong
    };
    Wait readLine(std::string& line, double timeoutSeconds, const std::atomic<bool>* cancel);

    mutable std::mutex m_mutex;
    nlohmann::json m_ready;
    std::string m_python; // the interpreter the running worker was started with
    pid_t m_pid = -1;
    int m_toWorker = -1;
    int m_fromWorker = -1;
    int m_lifeline = -1; // the launcher ends everything when this closes
    std::string m_pending;
    std::size_t m_scanned = 0; // how much of m_pending holds no newline
};

} // namespace ptowb::worker
