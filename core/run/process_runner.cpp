#include "run/process_runner.h"

#include "process/capped_text.h"
#include "process/reaper.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <algorithm>
#include <csignal>
#include <unistd.h>

namespace ptowb {
namespace {

constexpr std::size_t kStderrTailBytes = 4096;
static_assert(kProcessLogHeadBytes == qint64(process::kLogHeadBytes) &&
              kProcessLogTailBytes == qint64(process::kLogTailBytes));

// A log file that keeps the head and the tail of a stream of any length (process::CappedText):
// a runner that writes gigabytes leaves a log of a few MiB, and the end, where the error usually
// is, is kept.
class CappedLog
{
public:
    explicit CappedLog(const QString& path) : m_path(path) {}

    void append(const QByteArray& data)
    {
        m_text.append(std::string_view(data.constData(), std::size_t(data.size())));
    }

    void finish()
    {
        QFile file(m_path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return;
        const std::string text = m_text.text();
        file.write(text.data(), qint64(text.size()));
    }

    QByteArray recent() const { return QByteArray::fromStdString(m_text.recent(kStderrTailBytes)); }

private:
    QString m_path;
    process::CappedText m_text;
};

// The program as the reaper will run it: a path (relative to the working folder) or a name on
// PATH, as QProcess would have found it; "" when there is no such executable file.
QString resolveProgram(const QString& program, const QString& workingDir)
{
    if (!program.contains(QLatin1Char('/'))) return QStandardPaths::findExecutable(program);
    const QFileInfo file(QDir(workingDir).absoluteFilePath(program));
    return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
}

void killGroup(qint64 pid)
{
    if (pid > 0) ::kill(-pid_t(pid), SIGKILL);
}

} // namespace

ProcessOutcome runProcess(const QStringList& argv, const QString& workingDir, double timeoutSeconds,
                          const std::atomic<bool>* cancel)
{
    ProcessOutcome outcome;
    if (argv.isEmpty()) {
        outcome.error = QStringLiteral("empty command");
        return outcome;
    }
    const QString program = resolveProgram(argv.first(), workingDir);
    if (program.isEmpty()) {
        outcome.error =
            QStringLiteral("cannot start %1: no such executable file").arg(argv.first());
        return outcome;
    }
    const QString reaper = QString::fromStdString(process::reaperPath());
    if (reaper.isEmpty()) {
        outcome.error = QStringLiteral("cannot start %1: the process reaper (ptowb-reaper) was not "
                                       "found beside the kernel worker")
                            .arg(argv.first());
        return outcome;
    }
    // Through the reaper, which ends whatever the program leaves behind — even in a session of
    // its own — when it exits, when told to (SIGTERM), or when its stdin, a pipe held here,
    // closes because this process died. It gives the program stdin from /dev/null.
    QProcess process;
    process.setProgram(reaper);
    process.setArguments(QStringList{program} + argv.mid(1));
    process.setWorkingDirectory(workingDir);
    // And a process group of its own, killed after the run as well.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });

    QElapsedTimer clock;
    clock.start();
    process.start();
    if (!process.waitForStarted(10000)) {
        outcome.error =
            QStringLiteral("cannot start %1: %2").arg(argv.first(), process.errorString());
        return outcome;
    }
    // Taken now: processId() is 0 once the process has been reaped.
    const qint64 group = process.processId();
    CappedLog out(QDir(workingDir).filePath(QStringLiteral("stdout.log")));
    CappedLog err(QDir(workingDir).filePath(QStringLiteral("stderr.log")));
    auto drain = [&] {
        out.append(process.readAllStandardOutput());
        err.append(process.readAllStandardError());
    };
    const qint64 limitMs = qint64(timeoutSeconds * 1000);
    outcome.status = ProcessOutcome::Status::Finished;
    while (true) {
        const bool finished = process.waitForFinished(50); // reads both pipes while it waits
        drain();
        if (finished || process.state() == QProcess::NotRunning) break;
        if (cancel && cancel->load()) {
            outcome.status = ProcessOutcome::Status::Cancelled;
            break;
        }
        if (clock.elapsed() > limitMs) {
            outcome.status = ProcessOutcome::Status::TimedOut;
            break;
        }
    }
    // After every run, not only after a timeout: children a runner left behind (still writing
    // its outputs, say) must not outlive it. The reaper ends them when the program exits; a
    // program still running is ended with them on SIGTERM.
    if (process.state() != QProcess::NotRunning) {
        process.terminate();
        if (!process.waitForFinished(30000)) process.kill();
        process.waitForFinished(5000);
    }
    killGroup(group);
    drain();
    out.finish();
    err.finish();
    outcome.seconds = double(clock.elapsed()) / 1000.0;
    outcome.stderrTail = QString::fromUtf8(err.recent()).trimmed();
    if (outcome.status != ProcessOutcome::Status::Finished) return outcome;
    outcome.exitCode = process.exitCode();
    if (process.exitStatus() == QProcess::CrashExit)
        outcome.status = ProcessOutcome::Status::Crashed;
    return outcome;
}

} // namespace ptowb
