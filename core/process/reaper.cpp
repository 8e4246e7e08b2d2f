#include "process/reaper.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ptowb::process {

namespace {

struct Child
{
    pid_t pid = -1;
    bool running = false; // not yet a zombie
};

// The parent and state of a process, from /proc/PID/stat; -1 when it is gone.
pid_t parentOf(pid_t pid, char& state)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/stat", int(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[512];
    const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (n <= 0) return -1;
    buffer[n] = '\0';
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, the last ')' ends it.
    const char* close = std::strrchr(buffer, ')');
    long ppid = -1;
    if (!close || std::sscanf(close + 1, " %c %ld", &state, &ppid) != 2) return -1;
    return pid_t(ppid);
}

std::vector<Child> childrenOfSelf()
{
    std::vector<Child> children;
    const pid_t self = ::getpid();
    DIR* proc = ::opendir("/proc");
    if (!proc) return children;
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0') continue;
        char state = 0;
        if (parentOf(pid_t(pid), state) == self) children.push_back({pid_t(pid), state != 'Z'});
    }
    ::closedir(proc);
    return children;
}

// Another thread of this process may reap a child between the scan and the kill, and its pid be
// reused: a pidfd pins the process, which is killed only if it is still this process's child.
void killChild(pid_t pid)
{
#ifdef SYS_pidfd_open
    const int fd = int(::syscall(SYS_pidfd_open, pid, 0));
    if (fd >= 0) {
        char state = 0;
        if (parentOf(pid, state) == ::getpid())
            ::syscall(SYS_pidfd_send_signal, fd, SIGKILL, nullptr, 0);
        ::close(fd);
        return;
    }
    if (errno != ENOSYS) return; // gone already
#endif
    ::kill(pid, SIGKILL);
}

bool isPipeOrSocket(int fd)
{
    struct stat st
    {
    };
    return fd >= 0 && ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
constexpr int kPassedSignals[] = {SIGUSR1, SIGUSR2};

} // namespace

bool becomeSubreaper()
{
    return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

int endChildren(pid_t watched, int* watchedStatus)
{
    int ended = 0;
    for (;;) {
        const std::vector<Child> children = childrenOfSelf();
        if (children.empty()) return ended;
        for (const Child& child : children)
            if (child.running) killChild(child.pid);
        for (const Child& child : children) {
            int status = 0;
            pid_t reaped;
            do
                reaped = ::waitpid(child.pid, &status, 0);
            while (reaped < 0 && errno == EINTR);
            if (reaped != child.pid) continue; // another thread reaped it
            ended += child.running;
            if (child.pid == watched && watchedStatus) *watchedStatus = status;
        }
    }
}

int superviseChild(const std::vector<std::string>& argv, int lifelineFd, bool childStdinFromNull,
                   std::string& error)
{
    if (argv.empty()) {
        error = "nothing to run";
        return -1;
    }
    becomeSubreaper();
    sigset_t handled, previous;
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    for (int s : kStopSignals)
        sigaddset(&handled, s);
    for (int s : kPassedSignals)
        sigaddset(&handled, s);
    ::sigprocmask(SIG_BLOCK, &handled, &previous);
    const int signals = ::signalfd(-1, &handled, SFD_CLOEXEC);
    int execFailed[2];
    if (signals < 0 || ::pipe2(execFailed, O_CLOEXEC) != 0) {
        error = std::string("cannot supervise a process: ") + std::strerror(errno);
        return -1;
    }
    std::vector<char*> pointers;
    for (const std::string& a : argv)
        pointers.push_back(const_cast<char*>(a.c_str()));
    pointers.push_back(nullptr);
    const pid_t self = ::getpid();
    const pid_t child = ::fork();
    if (child == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        if (::getppid() != self) ::_exit(127); // the supervisor is gone already
        ::sigprocmask(SIG_SETMASK, &previous, nullptr);
        if (childStdinFromNull) {
            const int null = ::open("/dev/null", O_RDONLY);
            if (null > 0) {
                ::dup2(null, 0);
                ::close(null);
            }
        }
        if (lifelineFd > 2) ::close(lifelineFd);
        ::execvp(pointers[0], pointers.data());
        const int e = errno;
        [[maybe_unused]] const ssize_t n = ::write(execFailed[1], &e, sizeof e);
        ::_exit(127);
    }
    ::close(execFailed[1]);
    if (child < 0) {
        error = std::string("cannot start ") + argv[0] + ": " + std::strerror(errno);
        ::close(execFailed[0]);
        return -1;
    }
    int execError = 0;
    ssize_t n;
    do
        n = ::read(execFailed[0], &execError, sizeof execError);
    while (n < 0 && errno == EINTR);
    ::close(execFailed[0]);
    if (n == sizeof execError) {
        ::waitpid(child, nullptr, 0);
        error = std::string("cannot start ") + argv[0] + ": " + std::strerror(execError);
        return -1;
    }

    int lifeline = isPipeOrSocket(lifelineFd) ? lifelineFd : -1;
    if (lifeline == 0 || lifeline == 1) lifeline = ::fcntl(lifeline, F_DUPFD_CLOEXEC, 3);
    if (const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC); null >= 0) {
        ::dup2(null, 0);
        ::dup2(null, 1);
        if (null > 1) ::close(null);
    }
    int status = 0;
    bool exited = false;
    while (!exited) {
        pollfd fds[2] = {{signals, POLLIN, 0}, {lifeline, POLLIN, 0}};
        if (::poll(fds, lifeline >= 0 ? 2 : 1, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (lifeline >= 0 && fds[1].revents) {
            char ignored[256];
            const ssize_t got = ::read(lifeline, ignored, sizeof ignored);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) break;
        }
        if (!(fds[0].revents & POLLIN)) continue;
        signalfd_siginfo info{};
        if (::read(signals, &info, sizeof info) != sizeof info) continue;
        const int sig = int(info.ssi_signo);
        if (sig == SIGUSR1 || sig == SIGUSR2) {
            ::kill(child, sig);
        } else if (sig == SIGCHLD) {
            // Orphans adopted below are reaped as they end; the child's end ends the run.
            int s = 0;
            for (pid_t p; (p = ::waitpid(-1, &s, WNOHANG)) > 0;)
                if (p == child) {
                    status = s;
                    exited = true;
                }
        } else {
            break; // told to stop
        }
    }
    endChildren(exited ? -1 : child, &status);
    ::close(signals);
    return status;
}

void exitLike(int waitStatus)
{
    if (WIFSIGNALED(waitStatus)) {
        const int sig = WTERMSIG(waitStatus);
        const rlimit noCore{0, 0};
        ::setrlimit(RLIMIT_CORE, &noCore);
        std::signal(sig, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
        ::raise(sig);
        ::_exit(128 + sig);
    }
    ::_exit(WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : 1);
}

std::string reaperPath()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    auto in = [&](const fs::path& dir) {
        const fs::path p = dir / "ptowb-reaper";
        return fs::exists(p, ec) ? p.string() : std::string();
    };
    if (const char* worker = std::getenv("PTOWB_KERNEL_WORKER"); worker && *worker)
        if (std::string p = in(fs::path(worker).parent_path()); !p.empty()) return p;
    if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec)
        if (std::string p = in(exe.parent_path().parent_path() / "lib" / "ptowb"); !p.empty())
            return p;
#ifdef PTOWB_REAPER_BUILD_PATH
    if (fs::exists(PTOWB_REAPER_BUILD_PATH, ec)) return PTOWB_REAPER_BUILD_PATH;
#endif
    return {};
}

} // namespace ptowb::process
