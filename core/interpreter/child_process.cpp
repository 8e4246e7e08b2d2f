#include "interpreter/child_process.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ptowb::interpreter {

namespace {

constexpr std::size_t kMaxCaptured = std::size_t(4) << 20;

std::vector<char*> argvPointers(const std::vector<std::string>& argv)
{
    std::vector<char*> pointers;
    for (const std::string& a : argv)
        pointers.push_back(const_cast<char*>(a.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

// A file in memory holding `text`, read from its start: a child's stdin that never blocks the
// parent, whatever the child reads or does not.
int memoryFileWith(const std::string& text)
{
    const int fd = memfd_create("ptowb-stdin", MFD_CLOEXEC);
    if (fd < 0) return -1;
    for (std::size_t written = 0; written < text.size();) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0) {
            close(fd);
            return -1;
        }
        written += std::size_t(n);
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

} // namespace

ChildResult runChild(const std::vector<std::string>& argv, double timeoutSeconds,
                     const std::string* input, const std::atomic<bool>* cancel)
{
    ChildResult result;
    const int inputFd = input ? memoryFileWith(*input) : -1;
    if (input && inputFd < 0) {
        result.startError = "cannot hold the input in memory";
        return result;
    }
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        if (inputFd >= 0) close(inputFd);
        result.startError = "cannot create a pipe";
        return result;
    }
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        if (inputFd >= 0) close(inputFd);
        result.startError = "cannot create a pipe";
        return result;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (inputFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, inputFd, 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    pid_t pid = -1;
    auto pointers = argvPointers(argv);
    const int rc =
        posix_spawn(&pid, argv.at(0).c_str(), &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    close(err[1]);
    if (inputFd >= 0) close(inputFd);
    if (rc != 0) {
        close(out[0]);
        close(err[0]);
        result.startError = std::strerror(rc);
        return result;
    }
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(timeoutSeconds));
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open = 2;
    while (open > 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            result.timedOut = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (cancel && cancel->load()) {
            result.cancelled = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (::poll(fds, 2, int(std::min<long long>(left, cancel ? 50 : 1000))) < 0 &&
            errno != EINTR)
            break;
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[65536];
            const ssize_t n = ::read(fds[k].fd, buffer, sizeof buffer);
            if (n <= 0) {
                close(fds[k].fd);
                fds[k].fd = -1;
                --open;
            } else if (sinks[k]->size() < kMaxCaptured)
                sinks[k]->append(buffer, std::size_t(n));
        }
    }
    for (const pollfd& f : fds)
        if (f.fd >= 0) close(f.fd);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
    return result;
}

pid_t startChild(const std::vector<std::string>& argv, const std::string& logFile,
                 std::string& error)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = -1;
    auto pointers = argvPointers(argv);
    const int rc =
        posix_spawn(&pid, argv.at(0).c_str(), &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        error = "cannot start " + argv.at(0) + ": " + std::strerror(rc);
        return -1;
    }
    return pid;
}

} // namespace ptowb::interpreter
