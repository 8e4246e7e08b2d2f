#include "run/process_runner.h"

#include "diag/suggest.h"
#include "process/capped_text.h"
#include "process/reaper.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ptowb {
namespace {

constexpr std::size_t kStderrTailBytes = 4096;
static_assert(kProcessLogHeadBytes == std::int64_t(process::kLogHeadBytes) &&
              kProcessLogTailBytes == std::int64_t(process::kLogTailBytes));

// A log file that keeps the head and the tail of a stream of any length (process::CappedText):
// a runner that writes gigabytes leaves a log of a few MiB, and the end, where the error usually
// is, is kept.
class CappedLog
{
public:
    explicit CappedLog(std::string path) : m_path(std::move(path)) {}

    void append(const QByteArray& data)
    {
        m_text.append(std::string_view(data.constData(), std::size_t(data.size())));
    }

    void finish()
    {
        std::ofstream file(m_path, std::ios::binary | std::ios::trunc);
        if (file) file << m_text.text();
    }

    std::string recent() const { return m_text.recent(kStderrTailBytes); }

private:
    std::string m_path;
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

ProcessOutcome runProcess(const std::vector<std::string>& command, const std::string& workingDir,
                          double timeoutSeconds, const std::atomic<bool>* cancel)
{
    ProcessOutcome outcome;
    if (command.empty()) {
        outcome.error = "empty command";
        return outcome;
    }
    // The one place the run layer hands text to Qt: QProcess starts the reaper.
    QStringList argv;
    for (const std::string& arg : command)
        argv << QString::fromStdString(arg);
    const QString folder = QString::fromStdString(workingDir);
    const QString program = resolveProgram(argv.first(), folder);
    if (program.isEmpty()) {
        outcome.error = "cannot start " + command.front() + ": no such executable file";
        return outcome;
    }
    const std::string reaper = process::reaperPath();
    if (reaper.empty()) {
        outcome.error = "cannot start " + command.front() +
                        ": the process reaper (ptowb-reaper) was not found beside the kernel "
                        "worker";
        return outcome;
    }
    // Through the reaper, which ends whatever the program leaves behind — even in a session of
    // its own — when it exits, when told to (SIGTERM), or when its stdin, a pipe held here,
    // closes because this process died. It gives the program stdin from /dev/null.
    QProcess process;
    process.setProgram(QString::fromStdString(reaper));
    process.setArguments(QStringList{program} + argv.mid(1));
    process.setWorkingDirectory(folder);
    // And a process group of its own, killed after the run as well.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });

    QElapsedTimer clock;
    clock.start();
    process.start();
    if (!process.waitForStarted(10000)) {
        outcome.error =
            "cannot start " + command.front() + ": " + process.errorString().toStdString();
        return outcome;
    }
    // Taken now: processId() is 0 once the process has been reaped.
    const qint64 group = process.processId();
    CappedLog out((std::filesystem::path(workingDir) / "stdout.log").string());
    CappedLog err((std::filesystem::path(workingDir) / "stderr.log").string());
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
    outcome.stderrTail = trimmed(err.recent());
    if (outcome.status != ProcessOutcome::Status::Finished) return outcome;
    outcome.exitCode = process.exitCode();
    if (process.exitStatus() == QProcess::CrashExit)
        outcome.status = ProcessOutcome::Status::Crashed;
    return outcome;
}

} // namespace ptowb
