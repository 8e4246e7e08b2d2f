#pragma once

// Runs other programs without a shell: the interpreter probe and the compiler of the kernel
// worker's native module. Standard C++ and POSIX only.
#include <atomic>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ptowb::interpreter {

struct ChildResult
{
    std::string startError; // the program could not be started at all
    bool timedOut = false;
    int exitCode = -1;      // -1 when it did not exit normally
    int signal = 0;         // the signal that ended it (SIGKILL after a timeout), 0 when it exited
    bool cancelled = false; // killed because `cancel` was set
    std::string out;        // its stdout (capped)
    std::string err;        // its stderr (capped)
};

// Runs argv[0] (a path) with the current environment, stdin from /dev/null (or reading `input`
// when given), and waits at most timeoutSeconds, killing it past that or within 50 ms of
// `cancel` being set.
ChildResult runChild(const std::vector<std::string>& argv, double timeoutSeconds,
                     const std::string* input = nullptr, const std::atomic<bool>* cancel = nullptr);

// Starts argv[0] with stdout and stderr into `logFile` and returns its pid (-1 and `error` set
// when it cannot start). For jobs run side by side; reap them with waitpid.
pid_t startChild(const std::vector<std::string>& argv, const std::string& logFile,
                 std::string& error);

} // namespace ptowb::interpreter
