#pragma once

// Ending everything a run started. A program the workbench runs (the kernel worker's Python, a
// runner, a deploy command) may leave children behind: in the background, double-forked, in a
// session of their own (setsid), so neither its process nor its process group names them all.
// Its parent, made the subreaper of its descendants, still does: every orphan below it becomes
// its child, and killing its children again and again until none is left ends the whole tree.
// Linux only (prctl, /proc); standard C++ and POSIX otherwise.
#include <string>
#include <sys/types.h>
#include <vector>

namespace ptowb::process {

// Makes the calling process the subreaper of its descendants: orphans below it are re-parented
// to it instead of to init. False when the kernel refused.
bool becomeSubreaper();

// Kills every child of the calling process (SIGKILL) and reaps it, round after round, until
// none is left: as a subreaper, the children of the killed are its children in the next round.
// Returns how many processes were ended. When `watched` is one of them, its wait status is
// stored in *watchedStatus.
int endChildren(pid_t watched = -1, int* watchedStatus = nullptr);

// Runs argv (argv[0] a path, or a name looked up on PATH) as a child of the calling process and
// supervises it as its subreaper, until the child exits, the process gets SIGTERM, SIGINT, SIGHUP
// or SIGQUIT, or `lifelineFd` (when it is a pipe or socket) reaches its end — the parent died or
// closed it; then every process left below is ended (endChildren). SIGUSR1 and SIGUSR2 are passed
// on to the child. The child dies with the supervisor (PR_SET_PDEATHSIG), has stdin from
// /dev/null when `childStdinFromNull`, and keeps the other descriptors; the supervisor's own
// stdin and stdout become /dev/null once the child runs, so only the child holds those pipes.
// Returns the child's wait status, or -1 with `error` set when it could not be started.
int superviseChild(const std::vector<std::string>& argv, int lifelineFd, bool childStdinFromNull,
                   std::string& error);

// Ends the calling process as a wait status says a child ended: the same exit code or signal
// (without a core dump of its own).
[[noreturn]] void exitLike(int waitStatus);

// Where the reaper program (ptowb-reaper) is: beside the kernel worker of $PTOWB_KERNEL_WORKER,
// <exe>/../lib/ptowb/, or where the build put it; "" when none exists.
std::string reaperPath();

} // namespace ptowb::process
