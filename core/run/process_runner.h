#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace ptowb {

struct ProcessOutcome
{
    enum class Status
    {
        Finished,
        Crashed,
        TimedOut,
        Cancelled,
        FailedToStart
    };
    Status status = Status::FailedToStart;
    int exitCode = -1;
    double seconds = 0;
    std::string stderrTail; // the last few KiB the process wrote to stderr, trimmed
    std::string error;      // why it could not start
};

// Each of stdout.log and stderr.log keeps at most this much of the head and of the tail of what
// the process wrote, with a line saying how much was left out between them.
inline constexpr std::int64_t kProcessLogHeadBytes = 1 << 20;
inline constexpr std::int64_t kProcessLogTailBytes = 1 << 20;

// Runs argv[0] with argv[1..] — no shell — in `workingDir`, stdout and stderr going to
// stdout.log and stderr.log there (capped, see above). The process runs under ptowb-reaper
// (process/reaper.h), in a process group of its own: when the run ends — after a timeout, a
// cancel, and also after a normal exit — every process it started is killed, including those
// that left the group, so nothing a runner started can outlive it.
// Paths and arguments are UTF-8; QProcess, which does the work, sees them only in
// process_runner.cpp.
ProcessOutcome runProcess(const std::vector<std::string>& argv, const std::string& workingDir,
                          double timeoutSeconds, const std::atomic<bool>* cancel = nullptr);

} // namespace ptowb
