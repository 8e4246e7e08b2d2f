// Hostile kernels, runners and fill files, fed through ptowb-cli run and verify as a project
// someone handed over would be. Regressions: a kernel's children (in the background, forked, in a
// session of their own) and a runner's setsid child ran on after the CLI returned, after the time
// limit too; a kernel printing 60 MiB made a 63 MB run.json and 300 MiB timed out (the client
// rescanned its buffer for newlines on every read); a 200k-iteration loop made a 66 MB trace; a
// 2 GiB fill file of the wrong shape was read whole before its shape was compared.
#include "cost/cost_model.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

namespace {

struct Run
{
    int exitCode = -1;
    QString out, err;
    qint64 ms = 0;
    long maxRssKb = 0; // the CLI's, and that of the processes it waited for
};

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

// Runs ptowb-cli with extra environment entries; wait4 gives its peak memory.
Run cli(const QStringList& args, const QStringList& env = {})
{
    QTemporaryDir logs;
    const QByteArray out = QFile::encodeName(logs.filePath(QStringLiteral("out"))),
                     err = QFile::encodeName(logs.filePath(QStringLiteral("err")));
    std::vector<QByteArray> storage{QByteArrayLiteral(PTOWB_CLI)};
    for (const QString& a : args)
        storage.push_back(a.toUtf8());
    std::vector<char*> argv;
    for (QByteArray& a : storage)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The test's settings replace the inherited ones (getenv finds the first of a name).
    std::vector<QByteArray> envStorage;
    for (const QString& e : env)
        envStorage.push_back(e.toUtf8());
    for (char** e = environ; *e; ++e) {
        const QByteArray inherited(*e);
        const QByteArray name = inherited.left(inherited.indexOf('=') + 1);
        if (std::none_of(env.begin(), env.end(),
                         [&](const QString& own) { return own.toUtf8().startsWith(name); }))
            envStorage.push_back(inherited);
    }
    std::vector<char*> envp;
    for (QByteArray& e : envStorage)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.constData(), O_WRONLY | O_CREAT, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.constData(), O_WRONLY | O_CREAT, 0644);
    Run run;
    QElapsedTimer clock;
    clock.start();
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0) {
        int status = 0;
        rusage usage{};
        wait4(pid, &status, 0, &usage);
        run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        run.maxRssKb = usage.ru_maxrss;
    }
    posix_spawn_file_actions_destroy(&actions);
    run.ms = clock.elapsed();
    run.out = QString::fromUtf8(readFile(QString::fromUtf8(out)));
    run.err = QString::fromUtf8(readFile(QString::fromUtf8(err)));
    return run;
}

// The processes whose command line holds `marker` (not pgrep: it may not be installed).
QList<pid_t> processesWith(const QString& marker)
{
    QList<pid_t> found;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& name : pids) {
        bool number = false;
        const pid_t pid = pid_t(name.toLong(&number));
        if (!number || pid == getpid()) continue;
        QByteArray cmdline = readFile(QStringLiteral("/proc/%1/cmdline").arg(name));
        cmdline.replace('\0', ' ');
        if (cmdline.contains(marker.toUtf8())) found.append(pid);
    }
    return found;
}

// Fails when any process with `marker` runs, killing them so that the test leaves nothing.
QString leftovers(const QString& marker)
{
    const QList<pid_t> pids = processesWith(marker);
    QStringList names;
    for (pid_t pid : pids) {
        names << QString::fromUtf8(readFile(QStringLiteral("/proc/%1/cmdline").arg(pid)))
                     .replace(QChar(0), QChar(' '))
                     .trimmed();
        ::kill(pid, SIGKILL);
    }
    return names.join(QStringLiteral(", "));
}

// A copy of scale_gelu whose kernel runs `attack` first (indented into the kernel's body).
QString hostileProject(const QTemporaryDir& dir, const QString& attack,
                       const QString& imports = QStringLiteral("import os, subprocess, sys"))
{
    const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
    for (const QString& f : source.entryList(QDir::Files))
        QFile::copy(source.filePath(f), dir.filePath(f));
    QByteArray kernel = readFile(dir.filePath(QStringLiteral("kernel.py")));
    QString body;
    for (const QString& line : attack.split(QLatin1Char('\n')))
        body += QStringLiteral("    ") + line + QLatin1Char('\n');
    kernel.replace("import pypto\n", (imports + QStringLiteral("\nimport pypto\n")).toUtf8());
    kernel.replace("    rows, cols = x.shape\n", ("    rows, cols = x.shape\n" + body).toUtf8());
    QFile::remove(dir.filePath(QStringLiteral("kernel.py")));
    writeFile(dir.filePath(QStringLiteral("kernel.py")), kernel);
    return dir.path();
}

// Three ways out: a child in the background, a fork, and a double fork into a session of its own;
// the kernel goes on once all three sleep (sh has started the last one).
QString spawningAttack(const QString& marker)
{
    return QStringLiteral(
               "subprocess.Popen(['sleep', '%1'])\n"
               "if os.fork() == 0:\n"
               "    os.execvp('sleep', ['sleep', '%2'])\n"
               "subprocess.Popen(['/bin/sh', '-c', 'sleep %3 & exit 0'], start_new_session=True)\n"
               "def sleeping(mark):\n"
               "    for p in os.listdir('/proc'):\n"
               "        try:\n"
               "            if p.isdigit() and b'sleep\\0' + mark.encode() in "
               "open('/proc/' + p + '/cmdline', 'rb').read():\n"
               "                return True\n"
               "        except OSError:\n"
               "            pass\n"
               "    return False\n"
               "import time\n"
               "started = time.time()\n"
               "while not all(sleeping(m) for m in ('%1', '%2', '%3')) and time.time() < started + "
               "10:\n"
               "    time.sleep(0.01)")
        .arg(marker + QLatin1Char('1'), marker + QLatin1Char('2'), marker + QLatin1Char('3'));
}

QJsonObject runJson(const QString& caseDir)
{
    return QJsonDocument::fromJson(readFile(caseDir + QStringLiteral("/run.json"))).object();
}

} // namespace

class TestHostileRuns : public QObject
{
    Q_OBJECT

    // "90.<pid>": a sleep length no other test or program on the machine uses.
    const QString m_marker = QStringLiteral("90.%1").arg(getpid());

private Q_SLOTS:
    void kernelChildrenEndWithTheRun()
    {
        QTemporaryDir dir, out;
        const QString project = hostileProject(dir, spawningAttack(m_marker));
        const Run r =
            cli({"run", project, "--backend", "sim", "--case", "small", "--out", out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(leftovers(m_marker), QString());
        QVERIFY(runJson(out.filePath(QStringLiteral("small")))["stderr_tail"].toString().contains(
            QStringLiteral("process(es) the kernel started were still running and were ended")));
    }

    void kernelChildrenEndAfterTheTimeLimit_data()
    {
        QTest::addColumn<QString>("loop");
        QTest::newRow("interrupted") << QStringLiteral("while True:\n    pass");
        // The kernel ignores the interrupt: the worker is killed, and its launcher ends the rest.
        QTest::newRow("killed") << QStringLiteral(
            "import signal\nsignal.signal(signal.SIGUSR1, signal.SIG_IGN)\nwhile True:\n    pass");
    }

    void kernelChildrenEndAfterTheTimeLimit()
    {
        QFETCH(QString, loop);
        QTemporaryDir dir, out;
        const QString project =
            hostileProject(dir, spawningAttack(m_marker) + QLatin1Char('\n') + loop);
        const Run r = cli({"run", project, "--backend", "sim", "--case", "small", "--out",
                           out.path(), "--time-limit", "2"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("did not finish within 2 s")), qPrintable(r.out));
        QCOMPARE(leftovers(m_marker), QString());
        qInfo("stopped and cleaned up %lld ms after the start", r.ms);
    }

    // F14: a runner's children in a session of their own, after a timeout and after an exit.
    void runnerChildrenEndWithTheRun()
    {
        QTemporaryDir dir, config;
        const QString project = hostileProject(dir, QStringLiteral("pass"));
        const QString escape = QStringLiteral("setsid sleep %1 & (sleep %2 &); ")
                                   .arg(m_marker + QLatin1Char('4'), m_marker + QLatin1Char('5'));
        QVERIFY(QDir(config.path()).mkpath(QStringLiteral("ptowb")));
        writeFile(config.filePath(QStringLiteral("ptowb/runners.json")),
                  QStringLiteral(R"({"runners": [
  {"name": "escaper-hang", "kind": "device", "timeout_s": 2,
   "command": ["/bin/sh", "-c", "%1sleep 60"]},
  {"name": "escaper-exit", "kind": "device", "timeout_s": 30,
   "command": ["/bin/sh", "-c", "%1sleep 0.5; exit 3"]}]})")
                      .arg(escape)
                      .toUtf8());
        const QString env = QStringLiteral("XDG_CONFIG_HOME=") + config.path();
        for (const char* runner : {"escaper-hang", "escaper-exit"}) {
            const Run r = cli({"verify", project, "--case", "small", "--against", runner}, {env});
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.out.contains(QStringLiteral("did not finish within 2 s")) ||
                         r.out.contains(QStringLiteral("exited with status 3")),
                     qPrintable(r.out + r.err));
            QCOMPARE(leftovers(m_marker), QString());
        }
    }

    void kernelPrintOutputIsCapped_data()
    {
        QTest::addColumn<int>("mebibytes");
        QTest::newRow("60 MiB") << 60;
        QTest::newRow("300 MiB") << 300;
    }

    void kernelPrintOutputIsCapped()
    {
        QFETCH(int, mebibytes);
        QTemporaryDir dir, out;
        const QString project = hostileProject(
            dir, QStringLiteral("print('a' * (%1 << 20))\nprint('THE-END')").arg(mebibytes));
        const Run r = cli({"run", project, "--backend", "sim", "--case", "small", "--out",
                           out.path(), "--time-limit", "30"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err.left(2000)));
        const QString caseDir = out.filePath(QStringLiteral("small"));
        const qint64 size = QFileInfo(caseDir + QStringLiteral("/run.json")).size();
        qInfo("%d MiB printed: run.json %lld bytes, %lld ms", mebibytes, size, r.ms);
        QVERIFY(size < (qint64(2) << 20) + 8192);
        const QString log = runJson(caseDir)["stderr_tail"].toString();
        QVERIFY(log.startsWith(QString(1000, QLatin1Char('a'))));
        QVERIFY(log.contains(QStringLiteral("bytes left out here")));
        QVERIFY(log.endsWith(QStringLiteral("THE-END\n")));
        QVERIFY(r.out.size() < (4 << 20)); // what the CLI prints of it is capped as well
    }

    void longLoopTraceIsCapped()
    {
        QTemporaryDir dir, out;
        const QString project = hostileProject(
            dir, QStringLiteral("for k in pypto.loop(200000, name='LOOP_K', idx_name='k'):\n"
                                "    w = pypto.view(x, [1, 64], [0, 0])\n"
                                "    w = w + 1.0"));
        const Run r = cli({"run", project, "--backend", "sim", "--case", "small", "--out",
                           out.path(), "--platform", "generic", "--time-limit", "120"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QByteArray trace = readFile(out.filePath(QStringLiteral("small/trace.json")));
        qInfo("trace of 200k iterations: %lld bytes, run in %lld ms", qint64(trace.size()), r.ms);
        QVERIFY(trace.size() < (24 << 20));
        QVERIFY(trace.contains("later operations are left out of this trace"));
        // The cost panel's reading: every execution still counted per line.
        const ptowb::cost::CostReport report =
            ptowb::cost::costReportFromTrace(trace.toStdString());
        QCOMPARE(report.events.size(), ptowb::cost::kMaxTraceEvents);
        QVERIFY(report.operations() >= 400000);
        int loopLines = 0;
        for (const auto& line : report.byLine())
            loopLines += line.executions == 200000;
        QCOMPARE(loopLines, 2);
    }

    // G10: the header is compared with the case before any data is read.
    void fillFileOfTheWrongShapeIsNotRead()
    {
        QTemporaryDir dir;
        const QString project = hostileProject(dir, QStringLiteral("pass"));
        QByteArray op = readFile(dir.filePath(QStringLiteral("op.json")));
        op.replace("\"fill\": \"normal(0, 1)\"", "\"fill\": \"file:data/x.npy\"");
        writeFile(dir.filePath(QStringLiteral("op.json")), op);
        QVERIFY(QDir(project).mkpath(QStringLiteral("data")));
        // float32[16384, 32768]: 2 GiB of data, sparse on disk.
        QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 32768), }";
        header += QByteArray(int((64 - (10 + header.size() + 1) % 64) % 64), ' ') + '\n';
        QFile npy(dir.filePath(QStringLiteral("data/x.npy")));
        QVERIFY(npy.open(QIODevice::WriteOnly));
        npy.write(QByteArray("\x93NUMPY\x01\x00", 8));
        npy.write(QByteArray(1, char(header.size() & 0xff)) + char(header.size() >> 8));
        npy.write(header);
        QVERIFY(npy.resize(npy.size() + (qint64(2) << 30)));
        npy.close();
        const Run r = cli({"run", project, "--backend", "sim", "--case", "small"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(
                     QStringLiteral("holds float32[16384, 32768], the case says float16[4, 64]")),
                 qPrintable(r.out + r.err));
        qInfo("refused in %lld ms, at most %ld KiB resident", r.ms, r.maxRssKb);
        QVERIFY(r.maxRssKb < 400 * 1024);
    }
};

QTEST_GUILESS_MAIN(TestHostileRuns)
#include "tst_hostile_runs.moc"
