// ptowb-cli run / compare / verify against stand-in runners: a runner that is right, one that
// is wrong, and every way a runner can break. Real processes, real run folders and reports.
#include "run/process_runner.h"
#include "run/verification.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <atomic>
#include <thread>

namespace {

struct Run
{
    int exitCode = -1;
    QString out, err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(120000)) p.kill(); // a hang is a failure, not a wait
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const char* const kModes[] = {"close",       "scale2",  "crash",     "hang",    "spawn-hang",
                              "wrong-shape", "nothing", "truncated", "garbage", "exit3"};

// A copy of scale_gelu with one runner per fake_runner mode, plus a missing program and the
// pypto template.
QString makeProject(const QTemporaryDir& dir)
{
    const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
    for (const QString& f : source.entryList(QDir::Files))
        QFile::copy(source.filePath(f), dir.filePath(f));
    QJsonArray runners;
    for (const char* mode : kModes)
        runners.append(QJsonObject{{"name", mode},
                                   {"kind", "device"},
                                   {"timeout_s", QString(mode).contains("hang") ? 2 : 60},
                                   {"command", QJsonArray{PTOWB_FAKE_RUNNER, mode, "{run_dir}"}}});
    runners.append(QJsonObject{{"name", "missing"},
                               {"command", QJsonArray{"/nonexistent/runner", "{run_dir}"}}});
    runners.append(QJsonObject{
        {"name", "pypto"},
        {"kind", "sim"},
        {"run_mode", "sim"},
        {"soc", "KirinX90"},
        {"timeout_s", 60},
        {"command",
         QJsonArray{"/usr/bin/python3", PTOWB_SOURCE_DIR "/resources/runners/pypto_runner.py",
                    "{run_dir}", "--kernel", "{kernel}", "--function", "{function}", "--run-mode",
                    "{run_mode}", "--soc", "{soc}"}}});
    QFile f(dir.filePath("runners.json"));
    f.open(QIODevice::WriteOnly);
    f.write(QJsonDocument(QJsonObject{{"runners", runners}}).toJson());
    return dir.path();
}

// How many processes have `pattern` in their command line (pgrep, from procps, which
// ./setup.sh test installs); -1 when pgrep cannot run.
int processesMatching(const QString& pattern)
{
    QProcess pgrep;
    pgrep.start(QStringLiteral("pgrep"), {QStringLiteral("-f"), QStringLiteral("-x"), pattern});
    if (!pgrep.waitForFinished(30000) || pgrep.exitStatus() != QProcess::NormalExit ||
        pgrep.exitCode() > 1)
        return -1;
    return int(pgrep.readAllStandardOutput().count('\n'));
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestVerify : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_project;

    Run verify(const QString& against, const QStringList& extra = {})
    {
        return cli(QStringList{"verify", m_project, "--against", against} + extra);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_project = makeProject(m_dir);
    }

    void passesAgainstACorrectRunner()
    {
        const QString json = m_dir.filePath("pass.json"), junit = m_dir.filePath("pass.xml");
        const Run r = verify("close", {"--json", json, "--junit", junit});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains("PASS  small/y"));
        QVERIFY(r.out.contains("PASS  wide_fp32/y"));
        const QJsonObject report = readJson(json);
        QCOMPARE(report["verdict"].toString(), QStringLiteral("pass"));
        QCOMPARE(report["against"].toString(), QStringLiteral("close"));
        const QJsonArray cases = report["cases"].toArray();
        QCOMPARE(cases.size(), 2);
        const QJsonObject y = cases[1].toObject()["outputs"].toObject()["y"].toObject();
        QCOMPARE(y["verdict"].toString(), QStringLiteral("pass"));
        QCOMPARE(y["rule"].toString(), QStringLiteral("allclose(rtol=1e-05, atol=1e-05)"));
        QCOMPARE(y["shape"].toArray(), (QJsonArray{16, 256}));
        const QJsonObject metrics = y["metrics"].toObject();
        for (const char* key :
             {"max_abs_error", "mean_abs_error", "max_rel_error", "mean_rel_error", "rmse",
              "cosine", "rel_euclidean", "mismatch_count", "mismatch_ratio",
              "double_thousandth_ratio", "max_ulp", "nan_actual", "nan_expected", "inf_actual",
              "inf_expected"})
            QVERIFY2(metrics.contains(key), key);
        // Computed in double vs the reference's float32: small but real differences.
        QVERIFY(metrics["max_abs_error"].toDouble() > 0);
        QVERIFY(metrics["max_abs_error"].toDouble() < 1e-5);
        QVERIFY(metrics["cosine"].toDouble() > 0.99999);

        // JUnit: one testcase per case and output, none failed.
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QXmlStreamReader reader(&xml);
        int testcases = 0, failures = 0;
        while (!reader.atEnd()) {
            reader.readNext();
            if (reader.isStartElement() && reader.name() == QLatin1String("testcase")) ++testcases;
            if (reader.isStartElement() && reader.name() == QLatin1String("failure")) ++failures;
        }
        QVERIFY(!reader.hasError());
        QCOMPARE(testcases, 2);
        QCOMPARE(failures, 0);

        // The runs can be reopened: both folders follow the protocol.
        const QString target = report["target_run"].toString(),
                      reference = report["reference_run"].toString();
        for (const QString& run : {target, reference}) {
            QVERIFY(QFileInfo::exists(run + "/small/inputs/x.npy"));
            QVERIFY(QFileInfo::exists(run + "/small/outputs/y.npy"));
            QVERIFY(QFileInfo::exists(run + "/small/params.json"));
            QCOMPARE(readJson(run + "/small/run.json")["status"].toString(), QStringLiteral("ok"));
        }
        QCOMPARE(readJson(target + "/small/params.json")["channels"].toInt(), 32);
        const Run again = cli({"compare", target + "/wide_fp32/outputs/y.npy",
                               reference + "/wide_fp32/outputs/y.npy", "--json"});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(again.out.toUtf8()).object()["verdict"].toString(),
                 QStringLiteral("pass"));
    }

    void failsAgainstAWrongRunner()
    {
        const QString json = m_dir.filePath("fail.json"), junit = m_dir.filePath("fail.xml");
        const Run r = verify("scale2", {"--json", json, "--junit", junit});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("FAIL  small/y"));
        QVERIFY(r.out.contains("worst at ["));
        const QJsonObject report = readJson(json);
        QCOMPARE(report["verdict"].toString(), QStringLiteral("fail"));
        const QJsonObject y =
            report["cases"].toArray()[0].toObject()["outputs"].toObject()["y"].toObject();
        QCOMPARE(y["verdict"].toString(), QStringLiteral("fail"));
        QVERIFY(y["reason"].toString().contains("elements exceed atol + rtol*|expected|"));
        QCOMPARE(y["worst"].toArray().size(), 10);
        const QJsonObject worst = y["worst"].toArray()[0].toObject();
        QCOMPARE(worst["index"].toArray().size(), 2);
        QVERIFY(std::abs(worst["actual"].toDouble() - 2 * worst["expected"].toDouble()) <
                0.01 * std::abs(worst["actual"].toDouble()) + 1e-3);
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(xml.readAll());
        QCOMPARE(text.count("<failure "), 2);
        QVERIFY(text.contains("failures=\"2\""));
    }

    void brokenRunners_data()
    {
        QTest::addColumn<QString>("runner");
        QTest::addColumn<QString>("message");
        QTest::newRow("crash") << "crash"
                               << "runner 'crash' crashed";
        QTest::newRow("hang") << "hang"
                              << "did not finish within 2 s and was stopped";
        QTest::newRow("hang with children") << "spawn-hang"
                                            << "did not finish within 2 s";
        QTest::newRow("wrong shape")
            << "wrong-shape"
            << "output 'y' is float16[1, 1], but the rules say float16[4, 32]";
        QTest::newRow("no output") << "nothing"
                                   << "output 'y' was not written (expected outputs/y.npy)";
        QTest::newRow("truncated output") << "truncated"
                                          << "output 'y' is unreadable";
        QTest::newRow("garbage output") << "garbage"
                                        << "bad magic";
        QTest::newRow("non-zero exit") << "exit3"
                                       << "exited with status 3";
        QTest::newRow("missing program") << "missing"
                                         << "cannot start /nonexistent/runner";
    }

    void brokenRunners()
    {
        QFETCH(QString, runner);
        QFETCH(QString, message);
        const QString json = m_dir.filePath(runner + ".json"),
                      junit = m_dir.filePath(runner + ".xml");
        const Run r = verify(runner, {"--case", "small", "--json", json, "--junit", junit});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("ERROR small: ") && r.out.contains(message),
                 qPrintable(r.out + r.err));
        const QJsonObject c = readJson(json)["cases"].toArray()[0].toObject();
        QCOMPARE(c["verdict"].toString(), QStringLiteral("fail"));
        QVERIFY(c["error"].toString().contains(message));
        QFile xml(junit);
        QVERIFY(xml.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(xml.readAll()).contains("<error message="));
        if (runner == "exit3") QVERIFY(c["stderr_tail"].toString().contains("device not found"));
    }

    // A reference that never returns is stopped at the case's time limit, like a kernel.
    void referenceThatNeverReturnsIsStopped()
    {
        QTemporaryDir dir;
        makeProject(dir);
        QFile reference(dir.filePath("reference.py"));
        QVERIFY(reference.open(QIODevice::WriteOnly | QIODevice::Truncate));
        reference.write(
            "import torch\nfrom torch import Tensor\n\n\n"
            "def scale_gelu_reference(x: Tensor, scale: float, channels: int) -> Tensor:\n"
            "    y = x[:, :channels] * scale\n"
            "    i = 0\n"
            "    while i >= 0:\n"
            "        i = i + 1\n"
            "    return y\n");
        reference.close();
        const Run r = cli({"run", dir.path(), "--backend", "ref", "--case", "small", "--out",
                           dir.filePath("run"), "--time-limit", "2"});
        QVERIFY2(r.exitCode != 0 &&
                     (r.out + r.err).contains("the reference did not finish within 2 s"),
                 qPrintable(r.out + r.err));
        // The next run gets a fresh worker and a reference that works.
        QFile::remove(dir.filePath("reference.py"));
        QVERIFY(QFile::copy(PTOWB_SOURCE_DIR "/projects/scale_gelu/reference.py",
                            dir.filePath("reference.py")));
        const Run again = cli({"run", dir.path(), "--backend", "ref", "--case", "small", "--out",
                               dir.filePath("run2")});
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        const Run bad = cli({"run", dir.path(), "--backend", "ref", "--time-limit", "soon"});
        QVERIFY2(bad.exitCode != 0 && bad.err.contains("--time-limit takes seconds"),
                 qPrintable(bad.err));
    }

    // A case too big for this machine is refused from its shapes, before anything is allocated.
    void caseOverTheMemoryLimitIsRefused()
    {
        if (ptowb::defaultMemoryLimit() > (std::uint64_t(30) << 30))
            QSKIP("this machine has the memory for the case");
        QTemporaryDir dir;
        makeProject(dir);
        QFile file(dir.filePath("op.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject op = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray cases = op["cases"].toArray();
        QJsonObject first = cases[0].toObject(), inputs = first["inputs"].toObject(),
                    x = inputs["x"].toObject();
        x["shape"] =
            QJsonArray{46340, 46340}; // just under 2^31 elements: valid, but 8 GiB of float32
        x["dtype"] = "float32";
        inputs["x"] = x;
        first["inputs"] = inputs;
        cases[0] = first;
        op["cases"] = cases;
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(op).toJson());
        file.close();
        const QString name = first["name"].toString();
        const Run r = cli(
            {"run", dir.path(), "--backend", "ref", "--case", name, "--out", dir.filePath("run")});
        QVERIFY2(r.exitCode != 0 && (r.out + r.err).contains("needs about") &&
                     (r.out + r.err).contains("half of this machine's RAM"),
                 qPrintable(r.out + r.err));
        QDirIterator made(dir.filePath("run"), {QStringLiteral("*.npy")}, QDir::Files,
                          QDirIterator::Subdirectories);
        QVERIFY2(!made.hasNext(), "the case must be refused before its inputs are made");
    }

    void pyptoTemplateExplainsMissingPyPTO()
    {
        QProcess probe;
        probe.start("/usr/bin/python3", {"-c", "import pypto"});
        probe.waitForFinished();
        if (probe.exitCode() == 0)
            QSKIP("PyPTO is installed here; the missing-PyPTO path cannot be shown");
        const Run r = verify("pypto", {"--case", "small"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("exited with status") &&
                     r.out.contains("is not available in /usr/bin/python3"),
                 qPrintable(r.out));
        // Its own argument handling.
        QProcess usage;
        usage.start("/usr/bin/python3", {PTOWB_SOURCE_DIR "/resources/runners/pypto_runner.py"});
        usage.waitForFinished();
        QCOMPARE(usage.exitCode(), 2);
        QVERIFY(usage.readAllStandardError().contains("required"));
        QProcess notACase;
        notACase.start("/usr/bin/python3", {PTOWB_SOURCE_DIR "/resources/runners/pypto_runner.py",
                                            m_dir.path(), "--kernel", "k.py", "--function", "f"});
        notACase.waitForFinished();
        QCOMPARE(notACase.exitCode(), 2);
        QVERIFY(notACase.readAllStandardError().contains("is not a case folder"));
    }

    void runWritesTheRunFolder()
    {
        const QString out = m_dir.filePath("refrun");
        const Run r = cli({"run", m_project, "--backend", "ref", "--out", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("small: ok"));
        const QJsonObject record = readJson(out + "/wide_fp32/run.json");
        QCOMPARE(record["backend"].toString(), QStringLiteral("ref"));
        QCOMPARE(record["inputs"].toArray()[0].toObject()["dtype"].toString(),
                 QStringLiteral("float32"));
        QCOMPARE(record["outputs"].toArray()[0].toObject()["shape"].toArray(),
                 (QJsonArray{16, 256}));
        const Run external = cli({"run", m_project, "--backend", "crash", "--case", "small",
                                  "--out", m_dir.filePath("crashrun")});
        QCOMPARE(external.exitCode, 1);
        QCOMPARE(readJson(m_dir.filePath("crashrun/small/run.json"))["status"].toString(),
                 QStringLiteral("crashed"));
    }

    // Cancel, once the runner and its child run, stops both within a margin of the click.
    void cancelKillsTheRunner()
    {
        QTemporaryDir dir;
        const QString pattern = QStringLiteral(PTOWB_FAKE_RUNNER " spawn-hang ") + dir.path();
        std::atomic<bool> cancel{false}, returned{false};
        ptowb::ProcessOutcome outcome;
        std::thread runner([&] {
            const std::string folder = dir.path().toStdString();
            outcome =
                ptowb::runProcess({PTOWB_FAKE_RUNNER, "spawn-hang", folder}, folder, 600, &cancel);
            returned = true;
        });
        bool bothRan = false; // the runner forks its child first
        for (int k = 0; k < 6000 && !bothRan && !returned; ++k) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            bothRan = processesMatching(pattern) == 2;
        }
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        cancel = true;
        runner.join();
        const qint64 stoppingMs = sinceCancel.elapsed();
        QVERIFY2(bothRan, "the runner and its child never ran together");
        QCOMPARE(outcome.status, ptowb::ProcessOutcome::Status::Cancelled);
        QVERIFY2(stoppingMs < 2000, qPrintable(QString::number(stoppingMs)));
        // The runner's child went with it: nothing in its process group survives.
        QTRY_COMPARE_WITH_TIMEOUT(processesMatching(pattern), 0, 30000);
    }

    void referenceReturningTheWrongShape()
    {
        QTemporaryDir dir;
        const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
        for (const QString& f : source.entryList(QDir::Files))
            QFile::copy(source.filePath(f), dir.filePath(f));
        QFile reference(dir.filePath("reference.py"));
        QVERIFY(reference.open(QIODevice::WriteOnly | QIODevice::Truncate));
        reference.write("import torch\nfrom torch import Tensor\n\n\ndef scale_gelu_reference(x: "
                        "Tensor, scale: float, channels: int) -> Tensor:\n"
                        "    y = x * scale\n    return y\n");
        reference.close();
        const Run r = cli({"run", dir.path(), "--backend", "ref", "--case", "small", "--out",
                           dir.filePath("out")});
        QCOMPARE(r.exitCode, 1);
        // Either may be wrong; op.json's rule, valid but saying something else, comes first.
        QFile opJson(dir.filePath("op.json"));
        QVERIFY(opJson.open(QIODevice::ReadOnly));
        const QByteArray description = opJson.readAll();
        const int ruleLine =
            description.left(description.indexOf("\"shape\": \"[x.shape[0]")).count('\n') + 1;
        QVERIFY2(r.out.contains(dir.filePath("op.json") + ":" + QString::number(ruleLine) + ":") &&
                     r.out.contains("error: this shape rule disagrees with the reference: the "
                                    "reference returns 'y' as float16[4, 64], but the rules say "
                                    "float16[4, 32]; fix the rule or the reference"),
                 qPrintable(r.out));
    }

    void missingReferenceEngine()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PTOWB_REFERENCE_MODULE", "/nonexistent/libptowb_reference.so");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PTOWB_CLI),
                {"run", m_project, "--backend", "ref", "--out", m_dir.filePath("noengine")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 1);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(
            err.contains(
                "reference.py:1:1: error: the CPU reference engine (libtorch) cannot be loaded: "
                "/nonexistent/libptowb_reference.so does not exist"),
            qPrintable(err));
    }

    void samplesVerifyAgainstTheSimulator_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char* name : {"scale_gelu", "softmax", "matmul_bias"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    // The real kernel files, run by the built-in simulator, match the reference.
    void samplesVerifyAgainstTheSimulator()
    {
        QFETCH(QString, sample);
        QTemporaryDir dir;
        for (const char* file : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + sample + "/" + file,
                                dir.filePath(file)));
        const QString trace = dir.filePath("trace.json");
        const Run r = cli(
            {"verify", dir.path(), "--against", "sim", "--platform", "KirinX90", "--trace", trace});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(!r.out.contains("FAIL"));
        const QJsonObject json = readJson(trace);
        QVERIFY(json["traceEvents"].toArray().size() > 5);
    }

    // op.json's kernel arguments build the kernel's dataclass config and a plain int per case;
    // a class the kernel file lacks or a field it does not take is a case error at the kernel.
    void kernelArgumentsBindConfigObjects()
    {
        QTemporaryDir dir;
        for (const char* file : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(QStringLiteral(PTOWB_TEST_DATA "/config_kernel/") + file,
                                dir.filePath(file)));
        Run r = cli({"verify", dir.path(), "--against", "sim"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("rows_10") && r.out.contains("fp16_eps") && !r.out.contains("FAIL"),
                 qPrintable(r.out));

        QFile op(dir.filePath("op.json"));
        QVERIFY(op.open(QIODevice::ReadOnly));
        const QByteArray text = op.readAll();
        op.close();
        auto verifyWith = [&](const QByteArray& from, const QByteArray& to) {
            QByteArray changed = text;
            changed.replace(from, to);
            QFile out(dir.filePath("op.json"));
            if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
                qFatal("cannot write op.json");
            out.write(changed);
            out.close();
            return cli({"verify", dir.path(), "--against", "sim", "--case", "rows_10"});
        };
        r = verifyWith("\"class\": \"NormConfig\"", "\"class\": \"NormConfg\"");
        QVERIFY2(r.exitCode != 0 && r.out.contains("no class 'NormConfg'"),
                 qPrintable(r.out + r.err));
        r = verifyWith("\"tile_rows\"", "\"tile_row\"");
        QVERIFY2(r.exitCode != 0 && r.out.contains("does not take op.json's fields") &&
                     r.out.contains("tile_row"),
                 qPrintable(r.out + r.err));
        // A literal argument arrives as the nested lists op.json writes: the kernel unpacks it.
        r = verifyWith("[[1.0, 0.0]]", "[[2.0, 0.5]]");
        QVERIFY2(r.exitCode != 0 && r.out.contains("actual \u2248 2.000 \u00d7 expected + 0.5"),
                 qPrintable(r.out + r.err));
        r = verifyWith("[[1.0, 0.0]]", "[1.0, 0.0]");
        QVERIFY2(r.exitCode != 0 && r.out.contains("AFFINE"), qPrintable(r.out + r.err));
        r = verifyWith("[[1.0, 0.0]]", "[[1.0, {\"a\": 1}]]");
        QVERIFY2(r.exitCode != 0 && (r.out + r.err).contains("op.json:13:17") &&
                     (r.out + r.err).contains("an object in a literal value is a dict"),
                 qPrintable(r.out + r.err));
        // The config's dtype field is a pypto dtype: the kernel's assert compares it with x.dtype.
        r = verifyWith("\"dtype\": \"x.dtype\", \"tile_rows\"",
                       "\"dtype\": \"float16\", \"tile_rows\"");
        QVERIFY2(
            r.exitCode != 0 &&
                r.out.contains("config.dtype DataType.DT_FP16 does not match x DataType.DT_FP32"),
            qPrintable(r.out + r.err));
    }

    // A mutated input's value after the call is compared like an output: a kernel that forgets
    // to write it fails on it, by name.
    void mutatedInputIsCompared()
    {
        QTemporaryDir dir;
        for (const char* file : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(QStringLiteral(PTOWB_TEST_DATA "/mutated_kernel/") + file,
                                dir.filePath(file)));
        Run r = cli({"verify", dir.path(), "--against", "sim"});
        QVERIFY2(r.exitCode == 0 && r.out.contains("rows_4/acc") && r.out.contains("fp16/y"),
                 qPrintable(r.out + r.err));

        QFile kernel(dir.filePath("kernel.py"));
        QVERIFY(kernel.open(QIODevice::ReadOnly));
        QByteArray text = kernel.readAll();
        kernel.close();
        text.replace("acc[i:i + 1, :] = ", "unused = ");
        QVERIFY(kernel.open(QIODevice::WriteOnly | QIODevice::Truncate));
        kernel.write(text);
        kernel.close();
        r = cli({"verify", dir.path(), "--against", "sim"});
        QVERIFY2(r.exitCode != 0 && r.out.contains("FAIL  rows_4/acc") &&
                     r.out.contains("PASS  rows_4/y"),
                 qPrintable(r.out + r.err));
    }

    void usageErrors()
    {
        QCOMPARE(verify("nosuch").exitCode, 2);
        QVERIFY(
            verify("nosuch").err.contains("available: 'ref', 'sim', 'pypto-sim', 'npu', 'close'"));
        QCOMPARE(cli({"verify", m_project, "--against", "close", "--case", "nosuch"}).exitCode, 2);
        QCOMPARE(cli({"run", m_project}).exitCode, 2);
        QCOMPARE(cli({"compare", "/nonexistent.npy", "/nonexistent.npy"}).exitCode, 2);
        QCOMPARE(cli({"compare", "a.npy"}).exitCode, 2);
        QTemporaryDir empty;
        const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax"));
        for (const QString& f : source.entryList(QDir::Files))
            QFile::copy(source.filePath(f), empty.filePath(f));
        // No runner configured: verify runs against the simulator, as the app does, and says so.
        const Run none = cli({"verify", empty.path()});
        QVERIFY2(none.exitCode == 0 &&
                     none.err.contains("verifying against sim (no runner is configured"),
                 qPrintable(none.out + none.err));
        const Run unknownCase = cli({"verify", empty.path(), "--case", "rows9"});
        QVERIFY2(unknownCase.exitCode == 2 &&
                     unknownCase.err.contains("no case named 'rows9'; did you mean 'rows8'"),
                 qPrintable(unknownCase.err));
    }

    void brokenRunnerConfigIsADiagnostic()
    {
        QTemporaryDir dir;
        const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax"));
        for (const QString& f : source.entryList(QDir::Files))
            QFile::copy(source.filePath(f), dir.filePath(f));
        QFile f(dir.filePath("runners.json"));
        f.open(QIODevice::WriteOnly);
        f.write("[{\"name\": \"x\", \"command\": [\"prog\", \"{nope}\"]}]");
        f.close();
        const Run r = cli({"verify", dir.path(), "--against", "x"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("runners.json:1:36: error: unknown placeholder {nope}"),
                 qPrintable(r.err));
    }

    void compareCommand()
    {
        const QString out = m_dir.filePath("cmp");
        QVERIFY(
            cli({"run", m_project, "--backend", "close", "--case", "small", "--out", out + "-a"})
                .exitCode == 0);
        QVERIFY(
            cli({"run", m_project, "--backend", "scale2", "--case", "small", "--out", out + "-b"})
                .exitCode == 0);
        const QString a = out + "-a/small/outputs/y.npy", b = out + "-b/small/outputs/y.npy";
        const Run same = cli({"compare", a, a});
        QCOMPARE(same.exitCode, 0);
        QVERIFY(same.out.startsWith("PASS: "));
        const Run differ = cli({"compare", b, a, "--json"});
        QCOMPARE(differ.exitCode, 1);
        const QJsonObject j = QJsonDocument::fromJson(differ.out.toUtf8()).object();
        QCOMPARE(j["verdict"].toString(), QStringLiteral("fail"));
        QCOMPARE(j["dtype"].toString(), QStringLiteral("float16"));
        const Run loose = cli({"compare", b, a, "--rtol", "1.5", "--atol", "0.1"});
        QCOMPARE(loose.exitCode, 0);
        QVERIFY(loose.out.contains("allclose(rtol=1.5, atol=0.1)"));
        QCOMPARE(cli({"compare", b, a, "--rtol", "abc"}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
