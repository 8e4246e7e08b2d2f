#pragma once

// Talks to the kernel worker process (worker/kernel_worker.h): starts it on first use, keeps it
// warm between cases and runs, and turns a crash, a hang or Cancel into an answer instead of a
// hang of the caller. Standard C++ and POSIX only, so generated op libraries can use it too.
#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace ptowb::worker {

// Where the worker executable is: $PTOWB_KERNEL_WORKER, <exe>/../lib/ptowb/ptowb-kernel-worker, or
// where the build put it. "" when none exists.
std::string kernelWorkerPath();

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

private:
    std::string start();
    void stop();
    // Reads one answer line; "" with `line` set when one arrived.
    enum class Wait
    {
        Line,
        Timeout,
        Cancelled,
        Closed
    };
    Wait readLine(std::string& line, double timeoutSeconds, const std::atomic<bool>* cancel);

    std::mutex m_mutex;
    pid_t m_pid = -1;
    int m_toWorker = -1;
    int m_fromWorker = -1;
    std::string m_pending;
};

} // namespace ptowb::worker
