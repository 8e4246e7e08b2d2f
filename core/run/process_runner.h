#pragma once

#include <QString>
#include <QStringList>

#include <atomic>

namespace ptowb {

struct ProcessOutcome
{
    enum class Status { Finished, Crashed, TimedOut, Cancelled, FailedToStart };
    Status status = Status::FailedToStart;
    int exitCode = -1;
    double seconds = 0;
    QString stderrTail; // the last few KiB the process wrote to stderr
    QString error;      // why it could not start
};

// Runs argv[0] with argv[1..] — no shell — in `workingDir`, stdout and stderr going to
// stdout.log and stderr.log there. Kills the whole process group on timeout or when
// `cancel` becomes true, so a runner's own children cannot outlive it.
ProcessOutcome runProcess(const QStringList& argv, const QString& workingDir, double timeoutSeconds,
                          const std::atomic<bool>* cancel = nullptr);

} // namespace ptowb
