// The pypto-sim backend as a user runs it (ptowb-cli, real processes): the kernel under PyPI's
// real pypto in RunMode.SIM, its CostModel report kept in the run folder and its cycles in
// run.json; a kernel PyPTO rejects, at its line; verify against it, which compares nothing; an
// interpreter without pypto, in one message; and the simulator's own "cost" in the same form.
// The real PyPTO runs where PTOWB_PYPTO_PYTHON has it (tests/tools/pypto_venv.sh); those
// functions are skipped elsewhere. The `npu` backend runs through PyPTO's public API against
// the stand-ins of tests/data/npu_fake in a throw-away venv: it has not run on an NPU.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(300000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString project(const char* name)
{
    return QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QLatin1String(name);
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The project's op.json with its "kernel" object replaced.
bool setKernel(const QString& project, const QJsonObject& kernel)
{
    QJsonObject op = readJson(project + QStringLiteral("/op.json"));
    op[QStringLiteral("kernel")] = kernel;
    QFile f(project + QStringLiteral("/op.json"));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(QJsonDocument(op).toJson()) > 0;
}

bool hasPypto(const QString& python)
{
    if (python.isEmpty() || !QFileInfo(python).isExecutable()) return false;
    QProcess p;
    p.start(python, {"-E", "-c", "import importlib.util as u; print(bool(u.find_spec('pypto')))"});
    return p.waitForFinished(60000) && p.readAllStandardOutput().trimmed() == "True";
}

// A venv of the system Python (its torch) with tests/data/npu_fake/site in its site-packages.
QString fakeNpuVenv(const QTemporaryDir& dir)
{
    const QString venv = dir.filePath(QStringLiteral("venv"));
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            {"-m", "venv", "--system-site-packages", "--without-pip", venv});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    const QStringList libs =
        QDir(venv + QStringLiteral("/lib")).entryList({"python3*"}, QDir::Dirs);
    if (libs.isEmpty()) return {};
    const QString site =
        venv + QStringLiteral("/lib/") + libs.first() + QStringLiteral("/site-packages");
    QProcess copy;
    copy.start(QStringLiteral("/bin/cp"),
               {"-r", QStringLiteral(PTOWB_TEST_DATA "/npu_fake/site/."), site});
    if (!copy.waitForFinished(60000) || copy.exitCode() != 0) return {};
    return venv + QStringLiteral("/bin/python");
}

} // namespace

class TestPyptoBackend : public QObject
{
    Q_OBJECT

    const QString m_python = QStringLiteral(PTOWB_PYPTO_PYTHON);

private Q_SLOTS:
    void interpreterWithoutPypto()
    {
        QTemporaryDir dir;
        const Run r = cli({"run", project("softmax"), "--backend", "pypto-sim", "--python",
                           "/usr/bin/python3", "--out", dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("/usr/bin/python3 has none")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("pip install pypto")), qPrintable(r.err));
        QCOMPARE(r.err.count(QStringLiteral("ptowb-cli:")), 1);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("rows8"))));

        // The list of targets says the same, and where each one stands.
        const Run list = cli({"backends", project("softmax"), "--python", "/usr/bin/python3"});
        QCOMPARE(list.exitCode, 0);
        const QStringList lines = list.out.split('\n');
        QVERIFY2(lines.value(0).startsWith(QStringLiteral("sim ")) &&
                     lines.value(0).contains(QStringLiteral(" available ")),
                 qPrintable(list.out));
        QVERIFY2(lines.value(1).startsWith(QStringLiteral("pypto-sim ")) &&
                     lines.value(1).contains(QStringLiteral("unavailable")),
                 qPrintable(list.out));
        QVERIFY2(lines.value(2).contains(QStringLiteral("/usr/bin/python3 has none")),
                 qPrintable(list.out));
        if (hasPypto(m_python)) {
            const Run withPypto = cli({"backends", project("softmax"), "--python", m_python});
            QVERIFY2(withPypto.out.contains(
                         QRegularExpression(QStringLiteral("(^|\\n)pypto-sim +available "))),
                     qPrintable(withPypto.out));
            QVERIFY2(withPypto.out.contains(QStringLiteral("has no torch_npu")),
                     qPrintable(withPypto.out));
        }
    }

    void npuNeedsTorchNpu()
    {
        QTemporaryDir dir;
        Run r = cli({"run", project("softmax"), "--backend", "npu", "--python", "/usr/bin/python3",
                     "--out", dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("backend npu runs the real PyPTO")),
                 qPrintable(r.err));
        if (!hasPypto(m_python)) return;
        r = cli({"run", project("softmax"), "--backend", "npu", "--python", m_python, "--out",
                 dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(m_python + QStringLiteral(" has no torch_npu")), qPrintable(r.err));
    }

    void npuOutputsAreCompared()
    {
        QTemporaryDir dir;
        const QString python = fakeNpuVenv(dir);
        QVERIFY(!python.isEmpty());
        const QString copy = dir.filePath(QStringLiteral("project"));
        QVERIFY(QDir().mkpath(copy));
        for (const char* f : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(QStringLiteral(PTOWB_TEST_DATA "/npu_fake/project/") + f,
                                copy + '/' + QLatin1String(f)));
        const Run r = cli({"verify", copy, "--against", "npu", "--python", python});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        // Every output and the mutated input, of the fp32 and the bfloat16 case.
        QCOMPARE(r.out.count(QStringLiteral("PASS  ")), 4);
        QVERIFY2(r.out.contains(QStringLiteral("PASS  bf16/acc")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("scale_add vs npu: PASS")), qPrintable(r.err));

        // The same op with its kernel made inside a test: the driver runs the test until it
        // calls the kernel, and runs that kernel (with the test's offset) on the device.
        QVERIFY(QFile::copy(QStringLiteral(PTOWB_TEST_DATA "/npu_fake/project/made_kernel.py"),
                            copy + QStringLiteral("/made_kernel.py")));
        QVERIFY(setKernel(copy, QJsonObject{{"file", "made_kernel.py"},
                                            {"function", "scale_add_kernel"},
                                            {"made_by", "test_scale_add"}}));
        const Run made = cli({"verify", copy, "--against", "npu", "--python", python});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err + made.out));
        QCOMPARE(made.out.count(QStringLiteral("PASS  ")), 4);
    }

    // A kernel made inside a test whose host code is written for the NPU (`import torch_npu`,
    // tensors on "npu:0"): under SIM the driver runs that code on the CPU with the stand-in for
    // torch_npu, as the kernel worker does, up to the kernel's call.
    void madeKernelsNpuHostCodeRunsOnTheCpu()
    {
        if (!hasPypto(m_python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("project"));
        QVERIFY(QDir().mkpath(copy));
        for (const char* f : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(project("softmax") + '/' + QLatin1String(f),
                                copy + '/' + QLatin1String(f)));
        QFile kernel(copy + QStringLiteral("/made_softmax.py"));
        QVERIFY(kernel.open(QIODevice::WriteOnly));
        kernel.write("import torch\nimport torch_npu\n\nimport pypto\n\n\n"
                     "def test_softmax():\n"
                     "    torch.npu.set_device(0)\n"
                     "    x = torch.randn(8, 256, device=\"npu:0\")\n"
                     "    y = torch.empty(8, 256, device=\"npu:0\")\n\n"
                     "    @pypto.frontend.jit()\n"
                     "    def softmax_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...]):\n"
                     "        rows, cols = x.shape\n"
                     "        pypto.set_vec_tile_shapes(1, 64)\n"
                     "        for i in pypto.loop(rows, name=\"LOOP_ROWS\", idx_name=\"i\"):\n"
                     "            row = pypto.view(x, [1, cols], [i, 0])\n"
                     "            row_max = pypto.amax(row, dim=-1, keepdim=True)\n"
                     "            e = pypto.exp(row - row_max)\n"
                     "            y[i:i + 1, :] = e / pypto.sum(e, dim=-1, keepdim=True)\n\n"
                     "    softmax_kernel(x, y)\n");
        kernel.close();
        QVERIFY(setKernel(copy, QJsonObject{{"file", "made_softmax.py"},
                                            {"function", "softmax_kernel"},
                                            {"made_by", "test_softmax"}}));
        const Run r = cli({"run", copy, "--backend", "pypto-sim", "--python", m_python, "--case",
                           "rows8", "--out", dir.filePath(QStringLiteral("runs"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("cycles by pypto")), qPrintable(r.out));
    }

    void simulatorRecordsItsCycles()
    {
        QTemporaryDir dir;
        const Run r = cli({"run", project("softmax"), "--backend", "sim", "--case", "rows8",
                           "--platform", "Ascend910B2", "--out", dir.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject cost =
            readJson(dir.filePath(QStringLiteral("rows8/run.json"))).value("cost").toObject();
        QCOMPARE(cost.value("source").toString(), QStringLiteral("ptowb"));
        QCOMPARE(cost.value("soc").toString(), QStringLiteral("Ascend910B2"));
        QVERIFY(cost.value("total_cycles").toDouble() > cost.value("launch_cycles").toDouble());
        QVERIFY(cost.value("unit_cycles").toObject().value("vector").toDouble() > 0);
        QVERIFY2(r.out.contains(QStringLiteral("cycles by ptowb")), qPrintable(r.out));
    }

    void runsUnderTheRealPypto()
    {
        if (!hasPypto(m_python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QTemporaryDir dir;
        // A space in the run folder's path, as in the app's "PTO Workbench" sample copies: PyPTO
        // 0.2.0 hands its output path to g++ through a shell, unquoted.
        const QString out = dir.filePath(QStringLiteral("PTO Workbench runs"));
        const Run r = cli({"run", project("softmax"), "--backend", "pypto-sim", "--python",
                           m_python, "--case", "rows8", "--out", out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QString caseDir = out + QStringLiteral("/rows8");
        const QJsonObject record = readJson(caseDir + QStringLiteral("/run.json"));
        QCOMPARE(record.value("status").toString(), QStringLiteral("ok"));
        const QJsonObject cost = record.value("cost").toObject();
        QVERIFY2(cost.value("source").toString().startsWith(QStringLiteral("pypto ")),
                 qPrintable(cost.value("source").toString()));
        // The total is the report's, and the report stays in the run folder as PyPTO wrote it.
        QFile report(caseDir + '/' + cost.value("report").toString());
        QVERIFY(report.open(QIODevice::ReadOnly));
        const qint64 cycles = qint64(cost.value("total_cycles").toDouble());
        QVERIFY(cycles > 0);
        const QRegularExpression total(QStringLiteral("Total Cycles\\.+:\\s+(\\d+)"));
        QCOMPARE(total.match(QString::fromUtf8(report.readAll())).captured(1).toLongLong(), cycles);
        QVERIFY(QFileInfo(caseDir + '/' + cost.value("swimlane").toString()).isFile());
        QVERIFY(cost.value("pipes").toObject().contains(QStringLiteral("vector")));
        // The pipe swimlane's cycles land on the softmax kernel's lines: its exp, amax and the
        // store (PyPTO books the row's copies to the statement that consumes them).
        QSet<int> lines;
        qint64 mapped = 0;
        for (const QJsonValue& line : cost.value("lines").toArray()) {
            lines.insert(line.toObject().value("line").toInt());
            mapped += qint64(line.toObject().value("busy_cycles").toDouble());
        }
        QVERIFY2(lines.contains(11) && lines.contains(12) && lines.contains(13),
                 qPrintable(QJsonDocument(cost).toJson()));
        QVERIFY(mapped > cycles); // busy cycles of every pipe of every core, not the wall time
        // No values: the outputs folder holds nothing.
        QVERIFY(QDir(caseDir + QStringLiteral("/outputs")).isEmpty());
        QVERIFY2(r.out.contains(QStringLiteral("cycles by pypto")), qPrintable(r.out));
    }

    // Every sample and template runs under PyPI's pypto 0.2.0 (scale_gelu excepted: 0.2.0 has no
    // pypto.tanh, rejectionAtTheKernelLine).
    void samplesAndTemplatesRun_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("templateName");
        QTest::newRow("softmax") << "softmax"
                                 << "";
        QTest::newRow("matmul_bias") << "matmul_bias"
                                     << "";
        for (const char* t : {"elementwise", "reduction", "matmul"})
            QTest::newRow(t) << "" << t;
    }

    void samplesAndTemplatesRun()
    {
        if (!hasPypto(m_python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QFETCH(QString, sample);
        QFETCH(QString, templateName);
        QTemporaryDir dir;
        QString folder = project(sample.toUtf8().constData());
        if (!templateName.isEmpty()) {
            folder = dir.filePath(QStringLiteral("op"));
            const Run made = cli({"new", folder, "--template", templateName, "--name", "made"});
            QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        }
        const Run r = cli({"run", folder, "--backend", "pypto-sim", "--python", m_python, "--out",
                           dir.filePath(QStringLiteral("runs"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(!r.out.contains(QStringLiteral(": error")), qPrintable(r.out));
    }

    void rejectionAtTheKernelLine()
    {
        if (!hasPypto(m_python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QTemporaryDir dir;
        const Run r = cli({"run", project("scale_gelu"), "--backend", "pypto-sim", "--python",
                           m_python, "--case", "small", "--out", dir.path()});
        QCOMPARE(r.exitCode, 1);
        // PyPTO 0.2.0 has no pypto.tanh: its own words, at the call.
        QVERIFY2(r.out.contains(QStringLiteral("scale_gelu/kernel.py:13:13: error: PyPTO ")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("tanh")), qPrintable(r.out));
    }

    void verifyComparesNothing()
    {
        if (!hasPypto(m_python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        QTemporaryDir dir;
        for (const char* f : {"op.json", "kernel.py", "reference.py"})
            QVERIFY(QFile::copy(project("softmax") + '/' + f, dir.filePath(QLatin1String(f))));
        QTemporaryDir reports;
        const QString json = reports.filePath(QStringLiteral("verify.json"));
        const Run r = cli({"verify", dir.path(), "--against", "pypto-sim", "--python", m_python,
                           "--case", "rows8", "--json", json});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("COST  rows8: ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("pypto-sim produces no values, nothing compared")),
                 qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("cost only, nothing compared")), qPrintable(r.err));
        const QJsonObject report = readJson(json);
        const QJsonObject c = report.value("cases").toArray().first().toObject();
        QCOMPARE(c.value("compared").toBool(true), false);
        QVERIFY(c.value("cost").toObject().value("total_cycles").toDouble() > 0);
        QVERIFY(c.value("outputs").toObject().isEmpty());
        // No reference ran: only the target's run folder is there.
        const QStringList runs = QDir(dir.filePath(QStringLiteral(".ptowb/runs")))
                                     .entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        QVERIFY(runs.first().endsWith(QStringLiteral("-pypto-sim")));
    }
};

QTEST_GUILESS_MAIN(TestPyptoBackend)
#include "tst_pypto_backend.moc"
