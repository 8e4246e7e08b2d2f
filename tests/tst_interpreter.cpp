// The interpreter kernels run in is chosen, never found: --python / PTOWB_PYTHON / the system
// Python; the caller's PATH, VIRTUAL_ENV, PYTHONHOME, PYTHONPATH and current folder change
// nothing; an unusable interpreter is one message naming it (exit 2); run.json and the log say
// which interpreter ran; kernels that need a newer torch run in an interpreter that has it; the
// interpreter's installed PyPTO release is what validate's version warnings are about.
#include "interpreter/interpreter.h"
#include "interpreter/worker_build.h"
#include "kernel/kernel_check.h"
#include "spec/op_spec_loader.h"
#include "worker_client/worker_client.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <filesystem>

using namespace ptowb;

namespace {

struct CliResult
{
    int exitCode = -1;
    QString out, err;
};

CliResult cli(const QStringList& args,
              const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
              const QString& workingDir = QString())
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(900000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(text);
}

// A venv of the system Python in `dir` (with its site-packages too, or not); returns its
// python and sets `site` to its own site-packages folder.
QString makeVenv(const QTemporaryDir& dir, bool systemSitePackages, QString& site)
{
    const QString venv = dir.filePath(QStringLiteral("venv"));
    QStringList args = {"-m", "venv", "--without-pip"};
    if (systemSitePackages) args << "--system-site-packages";
    if (QProcess::execute(QStringLiteral("/usr/bin/python3"), args << venv) != 0) return {};
    const QString python = venv + "/bin/python";
    QProcess purelib;
    purelib.start(python, {"-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"});
    purelib.waitForFinished();
    site = QString::fromUtf8(purelib.readAllStandardOutput()).trimmed();
    return python;
}

// A copy of a sample project, so runs leave nothing in the source tree.
QString copySample(const QTemporaryDir& dir, const QString& sample)
{
    const QString to = dir.filePath(sample);
    QDir().mkpath(to);
    const QDir from(QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + sample);
    for (const QString& name :
         {QStringLiteral("op.json"), QStringLiteral("kernel.py"), QStringLiteral("reference.py")})
        QFile::copy(from.filePath(name), QDir(to).filePath(name));
    return to;
}

// The interpreter named in the newest run.json of the project's run folders.
QJsonObject lastRunInterpreter(const QString& project)
{
    QDir runs(project + QStringLiteral("/.ptowb/runs"));
    const QStringList ids = runs.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (auto id = ids.crbegin(); id != ids.crend(); ++id) {
        if (!id->endsWith(QLatin1String("-sim"))) continue;
        QDir run(runs.filePath(*id));
        for (const QString& c : run.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile f(run.filePath(c + QStringLiteral("/run.json")));
            if (f.open(QIODevice::ReadOnly))
                return QJsonDocument::fromJson(f.readAll())
                    .object()[QStringLiteral("interpreter")]
                    .toObject();
        }
    }
    return {};
}

} // namespace

class TestInterpreter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // The tester's own choice must not leak in.
        qunsetenv("PTOWB_PYTHON");
        QVERIFY(m_cache.isValid());
        qputenv("PTOWB_CACHE", m_cache.path().toUtf8());
    }

    void systemPythonIsTheDefault()
    {
        QCOMPARE(QString::fromStdString(interpreter::choosePython("")),
                 QStringLiteral("/usr/bin/python3"));
        auto found = interpreter::kernelInterpreter("");
        QVERIFY2(std::holds_alternative<interpreter::Interpreter>(found),
                 std::get_if<std::string>(&found) ? std::get<std::string>(found).c_str() : "");
        const auto& i = std::get<interpreter::Interpreter>(found);
        QCOMPARE(i.implementation, std::string("CPython"));
        QVERIFY(i.major == 3 && i.minor >= 9);
        QVERIFY(!i.torch.empty());
        QVERIFY(!i.torchInclude.empty());
        QVERIFY(interpreter::describe(i).find("torch " + i.torch) != std::string::npos);
    }

    void bareNameIsFoundOnPath()
    {
        // `--python python3` means the python3 a shell would run: first on PATH, kept as found
        // (a venv's bin/python3 is a symlink that must not be resolved).
        QTemporaryDir bin;
        const QString link = bin.filePath(QStringLiteral("python3"));
        QVERIFY(QFile::link(QStringLiteral("/usr/bin/python3"), link));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", bin.path().toUtf8() + ":" + path);
        const QString chosen = QString::fromStdString(interpreter::choosePython("python3"));
        qputenv("PATH", path);
        QCOMPARE(chosen, link);
        QCOMPARE(QString::fromStdString(interpreter::choosePython("python3")),
                 QStandardPaths::findExecutable(QStringLiteral("python3")));
        // A name found nowhere stays a name, which the probe then reports as missing.
        QCOMPARE(interpreter::choosePython("no-such-python-here").find('/'), std::string::npos);
    }

    void unusableInterpretersAreOneMessage_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "missing"
                                 << "does not exist";
        QTest::newRow("not a program") << "folder"
                                       << "is not an executable file";
        QTest::newRow("not python") << "script"
                                    << "is not a Python 3.9 or newer";
        QTest::newRow("no torch") << "venv"
                                  << "cannot import torch";
    }

    void unusableInterpretersAreOneMessage()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString python = dir.filePath(QStringLiteral("missing/python3"));
        if (kind == "folder") python = dir.path();
        if (kind == "script") {
            python = dir.filePath(QStringLiteral("python3"));
            writeFile(python, "#!/bin/sh\necho 'not python' >&2\nexit 3\n");
            QFile::setPermissions(python, QFile::permissions(python) | QFileDevice::ExeOwner);
        }
        if (kind == "venv") { // a real interpreter with its own empty site-packages
            QCOMPARE(QProcess::execute(QStringLiteral("/usr/bin/python3"),
                                       {"-m", "venv", "--without-pip", dir.filePath("venv")}),
                     0);
            python = dir.filePath(QStringLiteral("venv/bin/python"));
        }
        auto found = interpreter::kernelInterpreter(python.toStdString());
        QVERIFY(std::holds_alternative<std::string>(found));
        const QString message = QString::fromStdString(std::get<std::string>(found));
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(python), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Settings ▸ Python interpreter")),
                 qPrintable(message));

        // The CLI says the same, once, with exit status 2, and starts nothing.
        QTemporaryDir projects;
        const QString project = copySample(projects, QStringLiteral("softmax"));
        const CliResult r = cli({"verify", project, "--python", python});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("Traceback")), qPrintable(r.err));
        QVERIFY(!QDir(project + "/.ptowb/runs").exists());
    }

    // A torch without C++ headers cannot have the worker built for it: the worker says so, naming
    // the interpreter, before anything runs.
    void torchWithoutHeadersIsOneMessage()
    {
        QTemporaryDir dir;
        QString site;
        const QString python = makeVenv(dir, false, site);
        QVERIFY(!python.isEmpty() && !site.isEmpty());
        QVERIFY(QDir().mkpath(site + "/torch"));
        writeFile(site + "/torch/__init__.py",
                  "__version__ = '2.99.0'\nclass _C:\n    _GLIBCXX_USE_CXX11_ABI = True\n");
        QProcess worker;
        worker.start(QStringLiteral(PTOWB_KERNEL_WORKER), {"--python", python});
        QVERIFY(worker.waitForStarted());
        worker.write("{\"op\": \"ping\"}\n");
        worker.closeWriteChannel();
        QVERIFY(worker.waitForFinished(120000));
        QCOMPARE(worker.exitCode(), 2);
        const QString answer = QString::fromUtf8(worker.readAllStandardOutput());
        QVERIFY2(answer.contains(QStringLiteral("\"worker.build\"")) &&
                     answer.contains(QStringLiteral("ships no C++ headers")) &&
                     answer.contains(python),
                 qPrintable(answer));
    }

    // The worker cache keeps the newest builds and the one in use; older ones go, with their
    // locks; a folder still being built (no "complete") is left alone.
    void workerCacheStaysBounded()
    {
        QTemporaryDir root;
        const auto now = std::filesystem::file_time_type::clock::now();
        for (int k = 0; k < 9; ++k) {
            const QString dir = root.filePath(QStringLiteral("w%1").arg(k));
            QDir().mkpath(dir);
            writeFile(dir + "/complete", "ok\n");
            writeFile(dir + ".lock", "");
            std::filesystem::last_write_time((dir + "/complete").toStdString(),
                                             now - std::chrono::hours(k));
        }
        QDir().mkpath(root.filePath(QStringLiteral("w9.building")));
        const QString keep = root.filePath(QStringLiteral("w8")); // the oldest, but just chosen
        interpreter::pruneWorkerCache(root.path().toStdString(), keep.toStdString());
        QStringList left =
            QDir(root.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QCOMPARE(left, (QStringList{"w0", "w1", "w2", "w3", "w4", "w8", "w9.building"}));
        QVERIFY(!QFileInfo::exists(root.filePath(QStringLiteral("w5.lock"))));
        QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("w4.lock"))));
    }

    // A worker built for another interpreter is cached under a key of every source it is built
    // from: the runtime layer it links (op.json's loader, the reference engine's inputs) too, or
    // a cached worker would go on running the code of an older build.
    void workerCacheKeyCoversEverySource()
    {
        QFile manifestFile(QFileInfo(QStringLiteral(PTOWB_KERNEL_WORKER)).absolutePath() +
                           QStringLiteral("/worker_build.json"));
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        const QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        const QVariantList keys = manifest[QStringLiteral("key_files")].toArray().toVariantList();
        for (const char* list :
             {"worker_sources", "reference_sources", "shared_sources", "runtime_sources"}) {
            const QJsonArray sources = manifest[QLatin1String(list)].toArray();
            QVERIFY2(!sources.isEmpty(), list);
            for (const auto& source : sources)
                QVERIFY2(keys.contains(source.toString()),
                         qPrintable(QString::fromLatin1(list) + QStringLiteral(": ") +
                                    source.toString()));
        }
    }

    // A python3 first on PATH, an activated venv, PYTHONHOME, PYTHONPATH and a current folder
    // full of modules named like the standard library's: the same verify, in the same
    // interpreter, and none of those files runs.
    void callersEnvironmentChoosesNothing()
    {
        QTemporaryDir dir;
        const QString project = copySample(dir, QStringLiteral("softmax"));
        const CliResult plain = cli({"verify", project});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.out + plain.err));
        QCOMPARE(lastRunInterpreter(project)[QStringLiteral("executable")].toString(),
                 QStringLiteral("/usr/bin/python3"));

        const QString marker = dir.filePath(QStringLiteral("ran"));
        const QByteArray shadow =
            "open(" + QByteArray("'") + marker.toUtf8() + "', 'a').write(__file__)\n";
        for (const char* name :
             {"re.py", "inspect.py", "functools.py", "torch.py", "numpy.py", "site.py"}) {
            writeFile(QDir(project).filePath(name), shadow);
            writeFile(dir.filePath(name), shadow);
        }
        QDir().mkpath(dir.filePath("bin"));
        QDir().mkpath(dir.filePath("pythonpath"));
        writeFile(dir.filePath("pythonpath/torch.py"), shadow);
        QFile::link(QStringLiteral("/root/.pyenv/versions/3.12.1/bin/python3"),
                    dir.filePath("bin/python3"));
        const QString pyenv = QStringLiteral("/root/.pyenv/versions/3.12.1/bin");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", dir.filePath("bin") + ":" +
                               (QFileInfo::exists(pyenv) ? pyenv + ":" : QString()) +
                               env.value("PATH"));
        env.insert("VIRTUAL_ENV", dir.path());
        env.insert("PYTHONHOME", dir.filePath("nowhere"));
        env.insert("PYTHONPATH", dir.filePath("pythonpath"));
        env.insert("PYTHONSTARTUP", dir.filePath("re.py"));
        const CliResult hostile = cli({"verify", project}, env, project);
        QVERIFY2(hostile.exitCode == 0, qPrintable(hostile.out + hostile.err));
        QCOMPARE(hostile.out.count(QStringLiteral("PASS")),
                 plain.out.count(QStringLiteral("PASS")));
        QVERIFY2(!QFileInfo::exists(marker), "a project or current-folder module ran");
        QCOMPARE(lastRunInterpreter(project)[QStringLiteral("executable")].toString(),
                 QStringLiteral("/usr/bin/python3"));
        QVERIFY(!lastRunInterpreter(project)[QStringLiteral("torch")].toString().isEmpty());
    }

    // The kernel's own helper modules are found, after the standard library.
    void kernelFolderComesLast()
    {
        QTemporaryDir dir;
        const QString project = copySample(dir, QStringLiteral("softmax"));
        writeFile(QDir(project).filePath("softmax_helpers.py"), "ROWS_PER_STEP = 1\n");
        QFile kernel(QDir(project).filePath("kernel.py"));
        QVERIFY(kernel.open(QIODevice::ReadWrite));
        const QByteArray text = kernel.readAll();
        kernel.resize(0);
        kernel.write("import re\nimport softmax_helpers\nassert hasattr(re, 'compile')\n" + text);
        kernel.close();
        const CliResult r = cli({"verify", project});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    // A kernel written for torch 2.x: fails in Debian's torch 1.13 at its import line, and
    // verifies in the newest torch's venv (the worker is built for that torch on first use).
    void kernelsRunInTheChosenTorch()
    {
        const QString newest = QStringLiteral(PTOWB_NEWEST_TORCH_PYTHON);
        if (newest.isEmpty())
            QSKIP("no venv with the newest torch (tests/glue/newest_torch_venv.sh)");
        QTemporaryDir dir;
        const QString project = copySample(dir, QStringLiteral("softmax"));
        QFile kernel(QDir(project).filePath("kernel.py"));
        QVERIFY(kernel.open(QIODevice::ReadWrite));
        const QByteArray text = kernel.readAll();
        kernel.resize(0);
        kernel.write(
            "import torch\nfrom torch._dynamo import allow_in_graph\nWIDE = torch.uint16\n" + text);
        kernel.close();

        const CliResult old = cli({"verify", project});
        QCOMPARE(old.exitCode, 1);
        QVERIFY2((old.out + old.err).contains(QStringLiteral("kernel.py:2")),
                 qPrintable(old.out + old.err));

        const CliResult r = cli({"verify", project, "--python", newest});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonObject who = lastRunInterpreter(project);
        QCOMPARE(who[QStringLiteral("executable")].toString(), newest);
        QVERIFY2(who[QStringLiteral("torch")].toString().startsWith(QLatin1String("2.")),
                 qPrintable(who[QStringLiteral("torch")].toString()));
        QVERIFY2(r.out.contains(QStringLiteral("in Python")) ||
                     r.err.contains(QStringLiteral("in Python")),
                 qPrintable(r.out + r.err));

        // PTOWB_PYTHON chooses the same; a second run reuses the worker built for it.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PTOWB_PYTHON", newest);
        const CliResult again = cli({"verify", project}, env);
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY2(!again.err.contains(QStringLiteral("building the kernel worker")),
                 qPrintable(again.err));
    }

    // With a PyPTO release installed in the interpreter kernels run in, a call of a function that
    // release lacks is a warning at the call (the kernel runs here but not under it); without
    // one, or for a function the release has, nothing is said.
    void callsTheInstalledPyptoLacks()
    {
        QTemporaryDir dir;
        QString site;
        const QString python = makeVenv(dir, true, site);
        QVERIFY(!python.isEmpty() && !site.isEmpty());
        QVERIFY(QDir().mkpath(site + "/pypto") && QDir().mkpath(site + "/pypto-0.2.0.dist-info"));
        QFile(site + "/pypto/__init__.py").open(QIODevice::WriteOnly);
        QFile metadata(site + "/pypto-0.2.0.dist-info/METADATA");
        QVERIFY(metadata.open(QIODevice::WriteOnly));
        metadata.write("Metadata-Version: 2.1\nName: pypto\nVersion: 0.2.0\n");
        metadata.close();

        const OpSpec spec = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json").spec;
        QFile kernelFile(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu/kernel.py"));
        QVERIFY(kernelFile.open(QIODevice::ReadOnly));
        const std::string text = kernelFile.readAll().toStdString();
        QVERIFY(text.find("pypto.tanh(") != std::string::npos);
        const auto versionWarnings = [&] {
            std::vector<Diagnostic> found;
            for (const Diagnostic& d : kernel::checkKernelSource(text, spec, "kernel.py"))
                if (d.code == "kernel.pypto-version") found.push_back(d);
            return found;
        };
        QVERIFY(versionWarnings().empty()); // the system Python has no PyPTO
        worker::WorkerClient::choosePython((python).toStdString());
        const auto warned = versionWarnings();
        worker::WorkerClient::choosePython("");
        QVERIFY(!warned.empty());
        QCOMPARE(warned[0].severity, Severity::Warning);
        QVERIFY2(warned[0].message.find("pypto.tanh is not in pypto 0.2.0, the version in " +
                                        (python).toStdString()) != std::string::npos,
                 warned[0].message.c_str());
        const std::size_t call = text.find("pypto.tanh(");
        QCOMPARE(warned[0].line,
                 int(std::count(text.begin(), text.begin() + long(call), '\n')) + 1);
        for (const Diagnostic& d : warned)
            QVERIFY2(d.message.find("pypto.exp ") == std::string::npos, d.message.c_str());
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestInterpreter)
#include "tst_interpreter.moc"
