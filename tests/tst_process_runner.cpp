// External runners as hostile or broken programs. Regressions: children of a runner that exited
// 0 outlived the run (the group was killed only on timeout or cancel) and, still truncating an
// output the reader had memory-mapped, crashed ptowb-cli with SIGBUS; an output that is a FIFO
// hung verify; logs had no size cap (2.2 GB in 3 s).
#include "run/backend.h"
#include "run/process_runner.h"
#include "run_folder/run_folder.h"
#include "spec/op_spec_loader.h"
#include "tensor/npy.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ptowb;

namespace {

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool alive(pid_t pid)
{
    // A zombie is dead for our purpose: it runs nothing.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QByteArray text = stat.readAll();
    const int close = text.lastIndexOf(')');
    return close > 0 && text.mid(close + 2, 1) != "Z";
}

// SIGKILL is delivered asynchronously: give the kernel a moment to end the process (a long one
// on a loaded machine; the wait ends as soon as it has).
bool waitUntilDead(pid_t pid)
{
    QElapsedTimer clock;
    clock.start();
    while (alive(pid) && clock.elapsed() < 30000)
        QThread::msleep(5);
    return !alive(pid);
}

OpSpec scaleGelu()
{
    SpecLoadResult r = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json");
    if (!r.usable()) qFatal("scale_gelu does not validate");
    return r.spec;
}

} // namespace

class TestProcessRunner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void childrenDieWithTheRun()
    {
        QTemporaryDir dir;
        const ProcessOutcome outcome =
            runProcess({"/bin/sh", "-c", "sleep 60 & echo $! > child.pid; exit 0"},
                       dir.path().toStdString(), 30);
        QCOMPARE(int(outcome.status), int(ProcessOutcome::Status::Finished));
        QCOMPARE(outcome.exitCode, 0);
        const pid_t child =
            pid_t(readFile(dir.filePath(QStringLiteral("child.pid"))).trimmed().toLong());
        QVERIFY(child > 0);
        QVERIFY2(waitUntilDead(child), "the runner's child outlived the run");
    }

    void logsKeepHeadAndTail()
    {
        QTemporaryDir dir;
        QElapsedTimer clock;
        clock.start();
        // 64 MiB of 'a' on stdout, then a last line on each stream.
        const ProcessOutcome outcome = runProcess(
            {"/bin/sh", "-c",
             "head -c 67108864 /dev/zero | tr '\\0' a; echo; echo THE-END; echo err-end >&2"},
            dir.path().toStdString(), 60);
        QCOMPARE(int(outcome.status), int(ProcessOutcome::Status::Finished));
        qInfo("64 MiB of output logged in %lld ms", clock.elapsed());
        const QByteArray log = readFile(dir.filePath(QStringLiteral("stdout.log")));
        QVERIFY(log.size() <= kProcessLogHeadBytes + kProcessLogTailBytes + 200);
        QVERIFY(log.startsWith(QByteArray(1000, 'a')));
        QVERIFY(log.contains("bytes left out here"));
        QVERIFY(log.endsWith("THE-END\n"));
        QCOMPARE(outcome.stderrTail, std::string("err-end"));
        QCOMPARE(readFile(dir.filePath(QStringLiteral("stderr.log"))), QByteArray("err-end\n"));
    }

    void outputsMustBeRegularFilesOfTheRightSize()
    {
        const OpSpec spec = scaleGelu();
        const std::vector<InferredOutput> expected{{"y", {4, 32}, DType::Float16}};
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("outputs")));
        const QString y = dir.filePath(QStringLiteral("outputs/y.npy"));
        auto error = [&] {
            auto read = runfolder::readOutputs(dir.path().toStdString(), spec, expected);
            return std::holds_alternative<std::string>(read)
                       ? QString::fromStdString(std::get<std::string>(read))
                       : QString();
        };
        // Opening a FIFO without a writer would block: a reader that returns never opened it.
        QVERIFY(::mkfifo(QFile::encodeName(y).constData(), 0600) == 0);
        QVERIFY2(error().contains(QStringLiteral("not a regular file")), qPrintable(error()));
        QFile::remove(y);
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), y));
        QVERIFY2(error().contains(QStringLiteral("not a regular file")), qPrintable(error()));
        QFile::remove(y);
        // A file far larger than the output is refused unread; a small one gets readNpy's message.
        QVERIFY(writeNpy(y.toStdString(), Tensor(DType::Float32, {1024, 1024})).empty());
        QVERIFY2(error().contains(QStringLiteral("more than float16[4, 32] needs (256 bytes")),
                 qPrintable(error()));
        QFile small(y);
        QVERIFY(small.open(QIODevice::WriteOnly | QIODevice::Truncate));
        small.write("\x93NUMPY");
        small.close();
        QVERIFY2(error().contains(QStringLiteral("bad magic")), qPrintable(error()));
        QVERIFY(writeNpy(y.toStdString(), Tensor(DType::Float16, {4, 64})).empty());
        QVERIFY2(error().contains(QStringLiteral("but the rules say")), qPrintable(error()));
        QVERIFY(writeNpy(y.toStdString(), Tensor(DType::Float16, {4, 32})).empty());
        QCOMPARE(error(), QString());
        // readNpy on a FIFO directly: refused without waiting for a writer.
        const QString fifo = dir.filePath(QStringLiteral("fifo.npy"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QVERIFY(std::holds_alternative<std::string>(readNpy(fifo.toStdString())));
    }

    // A file truncated while it is read gives an error or a tensor, never SIGBUS.
    void truncatedWhileReading()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("big.npy")).toStdString();
        const Tensor big(DType::Float32, {1024, 4096}); // 16 MiB
        QVERIFY(writeNpy(path, big).empty());
        std::atomic<bool> stop{false};
        std::thread truncator([&] {
            while (!stop) {
                ::truncate(path.c_str(), 4096);
                std::this_thread::yield();
                ::truncate(path.c_str(), off_t(big.byteSize() + 128));
            }
        });
        int errors = 0;
        for (int k = 0; k < 200; ++k)
            errors += std::holds_alternative<std::string>(readNpy(path));
        stop = true;
        truncator.join();
        qInfo("200 reads during truncation: %d errors, no crash", errors);
    }

    void runnerLeavingAChildBehind()
    {
        const OpSpec spec = scaleGelu();
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.npy"));
        QVERIFY(writeNpy(good.toStdString(), Tensor(DType::Float16, {4, 32})).empty());
        RunnerConfig runner;
        runner.name = QStringLiteral("truncating").toStdString();
        runner.timeoutSeconds = 30;
        // Writes its output, leaves a child that keeps truncating and rewriting it, exits 0.
        runner.command = {"/bin/sh",
                          "-c",
                          "cp \"$1\" \"$2/outputs/y.npy\"; (while true; do : > "
                          "\"$2/outputs/y.npy\"; cp \"$1\" \"$2/outputs/y.npy\"; done) & "
                          "echo $! > \"$2/child.pid\"; exit 0",
                          "sh",
                          good.toStdString(),
                          "{run_dir}"};
        for (int k = 0; k < 5; ++k) {
            const QString caseDir = dir.filePath(QStringLiteral("case%1").arg(k));
            QDir().mkpath(caseDir + QStringLiteral("/outputs"));
            ExternalBackend backend(runner, dir.path().toStdString());
            RunRecord record;
            record.caseName = "small";
            record.expectedOutputs = {{"y", {4, 32}, DType::Float16}};
            std::vector<Tensor> outputs;
            const RunRecord done =
                backend.run(spec, {}, {}, caseDir.toStdString(), record, outputs, nullptr);
            QVERIFY2(done.status == "ok" || done.status == "error", done.error.c_str());
            const pid_t child =
                pid_t(readFile(caseDir + QStringLiteral("/child.pid")).trimmed().toLong());
            QVERIFY(child > 0);
            QVERIFY(waitUntilDead(child));
        }
    }
};

QTEST_GUILESS_MAIN(TestProcessRunner)
#include "tst_process_runner.moc"
