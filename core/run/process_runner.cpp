#include "run/process_runner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <algorithm>
#include <csignal>
#include <unistd.h>

namespace ptowb {
namespace {

constexpr qint64 kStderrTailBytes = 4096;

// A log file that keeps the head and the tail of a stream of any length: a runner that writes
// gigabytes leaves a log of a few MiB, and the end (where the error usually is) is kept.
class CappedLog
{
public:
    explicit CappedLog(const QString& path) : m_file(path)
    {
        m_file.open(QIODevice::WriteOnly | QIODevice::Truncate);
    }

    void append(const QByteArray& data)
    {
        if (data.isEmpty()) return;
        m_total += data.size();
        qint64 used = 0;
        if (m_head < kProcessLogHeadBytes) {
            used = std::min<qint64>(kProcessLogHeadBytes - m_head, data.size());
            m_file.write(data.constData(), used);
            m_head += used;
        }
        m_tail.append(data.constData() + used, data.size() - used);
        if (m_tail.size() > 2 * kProcessLogTailBytes)
            m_tail = m_tail.right(kProcessLogTailBytes); // amortized: one copy per MiB
        m_recent.append(data.right(kStderrTailBytes));
        if (m_recent.size() > 2 * kStderrTailBytes) m_recent = m_recent.right(kStderrTailBytes);
    }

    void finish()
    {
        if (m_tail.size() > kProcessLogTailBytes) m_tail = m_tail.right(kProcessLogTailBytes);
        const qint64 omitted = m_total - m_head - m_tail.size();
        if (omitted > 0)
            m_file.write(
                QStringLiteral(
                    "\n[ptowb: %1 bytes left out here; the log keeps the first and the last MiB]\n")
                    .arg(omitted)
                    .toUtf8());
        m_file.write(m_tail);
        m_file.close();
    }

    QByteArray recent() const { return m_recent.right(kStderrTailBytes); }

private:
    QFile m_file;
    qint64 m_total = 0, m_head = 0;
    QByteArray m_tail, m_recent;
};

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
    QProcess process;
    process.setProgram(argv.first());
    process.setArguments(argv.mid(1));
    process.setWorkingDirectory(workingDir);
    process.setStandardInputFile(QProcess::nullDevice());
    // Its own process group, so that ending the run ends whatever the runner started too.
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
    // its outputs, say) must not outlive it.
    killGroup(group);
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5000);
    }
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
