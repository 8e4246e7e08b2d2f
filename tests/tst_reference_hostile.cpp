// Hostile references, second round. Regressions: `(-9223372036854775807 - 1) // -1`, which
// libtorch folds while compiling, killed `validate` with SIGFPE (exit 136) and the app on open;
// twenty `len('a'.ljust(100000000))` took validate half a minute and 2.3 GB; and
// torch._sparse_coo_tensor_unsafe(...).to_dense() passed validate, then crashed the kernel worker.
// Now the reference compiles in a bounded checker process, a crash there is a diagnostic at the
// statement, and only allow-listed operators pass — while every reference of the repository and
// the golden functions kernel authors write still do.
#include "project/new_project.h"
#include "project/project.h"
#include "reference/reference_check.h"
#include "reference/reference_checker.h"
#include "spec/op_spec_loader.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

using namespace ptowb;

namespace {

struct CliRun
{
    int exitCode;
    bool crashed;
    QString output;
};

CliRun cli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(120000)) p.kill();
    p.waitForFinished();
    return {p.exitCode(), p.exitStatus() != QProcess::NormalExit, QString::fromUtf8(p.readAll())};
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) qFatal("cannot write");
}

// A sample with `reference` as its reference.py (its function renamed `function`).
QString sampleWith(const QTemporaryDir& dir, const QString& name, const std::string& reference,
                   const QString& function = {})
{
    const QString sample = QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + name + "/";
    writeFile(dir.filePath(QStringLiteral("kernel.py")), readFile(sample + "kernel.py"));
    QByteArray op = readFile(sample + QStringLiteral("op.json"));
    if (!function.isEmpty())
        op.replace("\"" + name.toUtf8() + "_reference\"", "\"" + function.toUtf8() + "\"");
    writeFile(dir.filePath(QStringLiteral("op.json")), op);
    writeFile(dir.filePath(QStringLiteral("reference.py")), QByteArray::fromStdString(reference));
    return dir.path();
}

QString softmaxWith(const QTemporaryDir& dir, const std::string& reference,
                    const QString& function = {})
{
    return sampleWith(dir, QStringLiteral("softmax"), reference, function);
}

const char* const kHead = "import torch\nfrom torch import Tensor\n\n\n"
                          "def softmax_reference(x: Tensor) -> Tensor:\n";
const char* const kReturn = "    return torch.softmax(x.to(torch.float32), dim=-1).to(x.dtype)";

Diagnostics checkProject(const QString& folder)
{
    std::string error;
    const auto project = Project::open(folder.toStdString(), error);
    if (!project) qFatal("%s", error.c_str());
    auto read = [](const std::string& path) {
        return readFile(QString::fromStdString(path)).toStdString();
    };
    return project->check(read(project->descriptionPath()), read(project->referencePath()),
                          read(project->kernelPath()));
}

QString messages(const Diagnostics& diagnostics)
{
    QString out;
    for (const Diagnostic& d : diagnostics)
        out += QString::fromStdString(formatDiagnostic(d)) + QLatin1Char('\n');
    return out;
}

} // namespace

class TestReferenceHostile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // libtorch folds constant integer arithmetic while compiling: INT64_MIN // -1 is a SIGFPE.
    // It happens in the checker's process, which finds the statement.
    void compileCrashIsADiagnosticAtItsStatement_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("line");
        QTest::newRow("//") << "    m = (-9223372036854775807 - 1) // -1\n" + QString(kReturn) +
                                   " * m\n"
                            << 6;
        QTest::newRow("%") << "    y = x * 2\n    m = (-9223372036854775807 - 1) % -1\n" +
                                  QString(kReturn) + " + y * m\n"
                           << 7;
        // In a block, in a helper the reference calls: the statement of the function body.
        QTest::newRow("helper") << "    return x * floor_of(3)\n\n\ndef floor_of(n: int) -> int:\n"
                                   "    k = n + 1\n    if k > 0:\n        k = k * 2\n"
                                   "        k = k + (-9223372036854775807 - 1) // -1\n"
                                   "    return k\n"
                                << 11;
    }

    void compileCrashIsADiagnosticAtItsStatement()
    {
        QFETCH(QString, body);
        QFETCH(int, line);
        QTemporaryDir dir;
        const QString folder = softmaxWith(dir, kHead + body.toStdString());
        const CliRun r = cli({QStringLiteral("validate"), folder});
        QVERIFY2(!r.crashed && r.exitCode == 1, qPrintable(r.output)); // not 136
        QVERIFY2(r.output.contains(QStringLiteral("reference.py:%1:").arg(line)) &&
                     r.output.contains(QStringLiteral("SIGFPE")) &&
                     r.output.contains(QStringLiteral("[reference.crash]")),
                 qPrintable(r.output));
    }

    // Folding a string of 10^8 characters twenty times: half a minute and 2.3 GB before. The
    // check stops at the kernel checker's limit and says so.
    void runawayFoldingStopsAtTheLimit()
    {
        QTemporaryDir dir;
        std::string body = "    n = 0\n";
        for (int k = 0; k < 20; ++k)
            body += "    n = n + len('a'.ljust(100000000))\n";
        const QString folder = softmaxWith(dir, kHead + body + kReturn + " * n\n");
        const CliRun r = cli({QStringLiteral("validate"), folder});
        QVERIFY2(!r.crashed && r.exitCode == 1, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("[reference.limit]")) &&
                     r.output.contains(QStringLiteral("limit of 10 s")),
                 qPrintable(r.output));
    }

    // Cancel (Esc during Verify, a newer check while typing) kills the checker at once, and what
    // it answers then is an error, never a clean verdict.
    void cancelStopsTheCheck()
    {
        QTemporaryDir dir;
        std::string body;
        for (int k = 0; k < 20; ++k)
            body += "    n = " + std::to_string(k) + " + len('a'.ljust(100000000))\n";
        const QString folder = softmaxWith(dir, kHead + body + kReturn + " * n\n");
        std::string error;
        const auto project = Project::open(folder.toStdString(), error);
        QVERIFY(project);
        const SpecLoadResult spec = project->validateSaved();
        QVERIFY(spec.usable());
        std::atomic<bool> cancel{false};
        QElapsedTimer timer;
        timer.start();
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        const Diagnostics d = project->checkReference(
            spec.spec, readFile(QString::fromStdString(project->referencePath())).toStdString(),
            &cancel);
        canceller.join();
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY2(d.size() == 1 && d[0].code == "reference.cancelled", qPrintable(messages(d)));
    }

    // An `_unsafe` constructor that trusts its indices: refused where it is called, by name.
    void uncheckedOperatorIsRefusedAtItsLine()
    {
        QTemporaryDir dir;
        const QString folder = softmaxWith(
            dir, kHead +
                     std::string("    y = torch._sparse_coo_tensor_unsafe(torch.tensor("
                                 "[[4000000000000]]), torch.ones([1]), [2]).to_dense()\n") +
                     kReturn + " + y.sum()\n");
        const CliRun r = cli({QStringLiteral("validate"), folder});
        QVERIFY2(!r.crashed && r.exitCode == 1, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("reference.py:6:9: error: the reference calls "
                                                  "aten::_sparse_coo_tensor_unsafe")),
                 qPrintable(r.output));
    }

    void operatorsOffTheListAreRefused_data()
    {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("op");
        QTest::newRow("as_strided") << "y = torch.as_strided(x, [4], [100000])"
                                    << "aten::as_strided";
        QTest::newRow("set_") << "y = x.set_()"
                              << "aten::set_";
        QTest::newRow("to_dense") << "y = x.to_dense()"
                                  << "aten::to_dense";
        QTest::newRow("private") << "y = torch._unsafe_view(x, [-1])"
                                 << "aten::_unsafe_view";
        QTest::newRow("random") << "y = torch.bernoulli(x)"
                                << "aten::bernoulli";
        QTest::newRow("quantized") << "y = torch.dequantize(x)"
                                   << "aten::dequantize";
        QTest::newRow("print") << "print(x)\n    y = x"
                               << "prim::Print";
    }

    void operatorsOffTheListAreRefused()
    {
        QFETCH(QString, statement);
        QFETCH(QString, op);
        QTemporaryDir dir;
        // y is used: libtorch drops what nothing uses before the operators are checked.
        const Diagnostics d = checkProject(softmaxWith(
            dir, kHead + ("    " + statement.toStdString() + "\n") + kReturn + " + y.sum()\n"));
        QVERIFY2(d.size() == 1 && d[0].line == 6 && d[0].code == "reference.forbidden" &&
                     QString::fromStdString(d[0].message).contains(op),
                 qPrintable(messages(d)));
    }

    // The allow-list is not in the way: the samples, the templates, the test projects, and the
    // golden functions kernel authors write (tests/data/typical_references) compile clean.
    void legitimateReferencesPass()
    {
        QStringList folders;
        for (const char* root : {PTOWB_SOURCE_DIR "/projects", PTOWB_TEST_DATA})
            for (const QString& name : QDir(QString::fromLatin1(root)).entryList(QDir::Dirs))
                if (QFileInfo::exists(QString::fromLatin1(root) + "/" + name + "/op.json") &&
                    QFileInfo::exists(QString::fromLatin1(root) + "/" + name + "/reference.py"))
                    folders << QString::fromLatin1(root) + "/" + name;
        QVERIFY(folders.size() >= 6);
        QTemporaryDir dir;
        for (const std::string& name : templateNames()) {
            NewProjectOptions options;
            options.folder = dir.filePath(QString::fromStdString(name)).toStdString();
            options.templateName = name;
            options.name = "my_" + name;
            QCOMPARE(createProjectFromTemplate(options), std::string());
            folders << QString::fromStdString(options.folder);
        }
        QTemporaryDir typical;
        folders << softmaxWith(
            typical,
            readFile(QStringLiteral(PTOWB_TEST_DATA "/typical_references/reference.py"))
                .toStdString(),
            QStringLiteral("typical_reference"));
        for (const QString& folder : folders) {
            const Diagnostics d = checkProject(folder);
            QVERIFY2(!hasErrors(d), qPrintable(folder + QLatin1Char('\n') + messages(d)));
        }
    }

    // The same fault at run time, from a parameter, passes the checker and crashes the kernel
    // worker: a case error that says so, and the next case runs in a fresh worker.
    void referenceCrashingTheWorkerIsACaseError()
    {
        QTemporaryDir dir;
        const QString folder = sampleWith(
            dir, QStringLiteral("scale_gelu"),
            "import torch\nfrom torch import Tensor\n\n\n"
            "def scale_gelu_reference(x: Tensor, scale: float, channels: int) -> Tensor:\n"
            "    d = (channels - 9223372036854775807 - 33) // -1\n" // INT64_MIN // -1 when 32
            "    return (x[:, :channels] * scale * float(d)).to(x.dtype)\n");
        QCOMPARE(cli({QStringLiteral("validate"), folder}).exitCode, 0);
        const CliRun r =
            cli({QStringLiteral("run"), folder, QStringLiteral("--backend"), QStringLiteral("ref"),
                 QStringLiteral("--out"), dir.filePath(QStringLiteral("out"))});
        QVERIFY2(!r.crashed && r.exitCode == 1, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("small: crashed: ")) &&
                     r.output.contains(QStringLiteral("the kernel worker crashed (SIGFPE")) &&
                     r.output.contains(QStringLiteral("while running the reference")) &&
                     r.output.contains(QStringLiteral("wide_fp32: ok")),
                 qPrintable(r.output));
    }

    // How the checker finds the crashing statement: the source cut after a line keeps its line
    // numbers and the values the kept statements computed.
    void cutKeepsLinesAndValues()
    {
        const std::string source = "import torch\n\n\ndef f(x: Tensor, n: int) -> Tensor:\n"
                                   "    a, b = n, n + 1\n    c: int = a * 2  # note\n"
                                   "    if c > 0:\n        d = c\n    x[0] = 1.0; e = 3\n"
                                   "    return x * a\n\n\ndef g(y: Tensor) -> Tensor:\n"
                                   "    return y\n";
        QCOMPARE(referenceStatementLines(source), (std::vector<int>{5, 6, 7, 9, 10, 14}));
        const std::string cut = cutReferenceAfter(source, 6);
        QCOMPARE(std::count(cut.begin(), cut.end(), '\n'),
                 std::count(source.begin(), source.end(), '\n'));
        QCOMPARE(QString::fromStdString(cut).split(QLatin1Char('\n')).mid(6, 8),
                 QStringList({"    assert False, str(a) + str(b) + str(c)", "", "", "", "", "",
                              "def g(y: Tensor) -> Tensor:", "    assert False, \"\""}));
        QCOMPARE(cutReferenceAfter(source, 14), source);
        QVERIFY(cutReferenceAfter(source, 9).find("assert False, str(a) + str(b) + str(c) + "
                                                  "str(x) + str(e)") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestReferenceHostile)
#include "tst_reference_hostile.moc"
