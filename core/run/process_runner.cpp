#include "run/process_runner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>

#include <csignal>
#include <unistd.h>

namespace ptowb {
namespace {

constexpr qint64 kTailBytes = 4096;

QString tailOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    if (f.size() > kTailBytes) f.seek(f.size() - kTailBytes);
    return QString::fromUtf8(f.readAll()).trimmed();
}

void killGroup(QProcess& process)
{
    const qint64 pid = process.processId();
    if (pid > 0) ::kill(-pid_t(pid), SIGKILL);
    process.kill();
    process.waitForFinished(5000);
}

} // namespace

ProcessOutcome runProcess(const QStringList& argv, const QString& workingDir, double timeoutSeconds, const std::atomic<bool>* cancel)
{
    ProcessOutcome outcome;
    if (argv.isEmpty()) {
        outcome.error = QStringLiteral("empty command");
        return outcome;
    }
    QProcess process;
    process.setProgram(argv.first());
    process.setArguments(argv.mid(1));
    process.setWorkingDirectory(workingDir);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QDir(workingDir).filePath(QStringLiteral("stdout.log")));
    process.setStandardErrorFile(QDir(workingDir).filePath(QStringLiteral("stderr.log")));
    // Its own process group, so that a timeout kills whatever the runner started too.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });

    QElapsedTimer clock;
    clock.start();
    process.start();
    if (!process.waitForStarted(10000)) {
        outcome.error = QStringLiteral("cannot start %1: %2").arg(argv.first(), process.errorString());
        return outcome;
    }
    const qint64 limitMs = qint64(timeoutSeconds * 1000);
    while (!process.waitForFinished(50)) {
        if (process.state() == QProcess::NotRunning) break;
        if (cancel && cancel->load()) {
            killGroup(process);
            outcome.status = ProcessOutcome::Status::Cancelled;
            break;
        }
        if (clock.elapsed() > limitMs) {
            killGroup(process);
            outcome.status = ProcessOutcome::Status::TimedOut;
            break;
        }
    }
    outcome.seconds = double(clock.elapsed()) / 1000.0;
    outcome.stderrTail = tailOf(QDir(workingDir).filePath(QStringLiteral("stderr.log")));
    if (outcome.status == ProcessOutcome::Status::Cancelled || outcome.status == ProcessOutcome::Status::TimedOut) return outcome;
    outcome.exitCode = process.exitCode();
    outcome.status = process.exitStatus() == QProcess::CrashExit ? ProcessOutcome::Status::Crashed : ProcessOutcome::Status::Finished;
    return outcome;
}

} // namespace ptowb
