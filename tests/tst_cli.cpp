// ptowb-cli as a user runs it: real processes, exit codes, stdout and stderr.
#include <QDir>
#include <QFile>
#include <QProcess>
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
    if (!p.waitForFinished(30000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QString project(const char* name)
{
    return QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QLatin1String(name);
}

// A copy of scale_gelu whose op.json is replaced by `opJson`.
QString brokenProject(QTemporaryDir& dir, const QString& fixture)
{
    for (const char* f : {"kernel.py", "reference.py"})
        QFile::copy(project("scale_gelu") + '/' + f, dir.filePath(QLatin1String(f)));
    QFile::copy(fixture, dir.filePath(QStringLiteral("op.json")));
    return dir.path();
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void newFromTemplate()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("softsign"));
        Run r = cli({"new", folder, "--template", "elementwise", "--name", "softsign",
                     "--namespace", "demo"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = cli({"validate", folder});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile(folder + QStringLiteral("/op.json")).open(QIODevice::ReadOnly));
        r = cli({"new", folder, "--template", "elementwise", "--name", "softsign"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("exists and is not empty")));
        r = cli(
            {"new", dir.filePath(QStringLiteral("x")), "--template", "reducton", "--name", "x"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("did you mean 'reduction'?")), qPrintable(r.err));
        r = cli(
            {"new", dir.filePath(QStringLiteral("y")), "--template", "matmul", "--name", "Bad"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("y/op.json"))));
    }

    void validateSamples_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"scale_gelu", "softmax", "matmul_bias"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    void validateSamples()
    {
        QFETCH(QString, name);
        const Run r = cli({"validate", project(name.toUtf8().constData())});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QString());
        QVERIFY(r.err.contains(QStringLiteral("0 errors, 0 warnings")));
    }

    void validateBroken()
    {
        QTemporaryDir dir;
        const QString path = brokenProject(
            dir, QStringLiteral(PTOWB_TEST_DATA "/spec_broken/rule_unknown_name.json"));
        const Run r = cli({"validate", path});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, dir.filePath("op.json") + ":11:52: error: unknown name 'chanels'; did you "
                                                  "mean 'channels'? [rule.unknown-name]\n");
        QVERIFY(r.err.contains(QStringLiteral("1 error, 0 warnings")));
    }

    void validateWarningsOnly()
    {
        QTemporaryDir dir;
        const QString path =
            brokenProject(dir, QStringLiteral(PTOWB_TEST_DATA "/spec_broken/unknown_top_key.json"));
        QCOMPARE(cli({"validate", path}).exitCode, 1); // "outputs" is misspelt, so it is missing
        QFile sample(project("scale_gelu") + "/op.json");
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QByteArray withTypo =
            sample.readAll().replace("\"doc\": \"activations", "\"dco\": \"activations");
        QFile out(dir.filePath("op.json"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(withTypo);
        out.close();
        const Run r = cli({"validate", path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral(": warning: unknown key \"dco\"")));
    }

    void validateCompilesTheReference()
    {
        QTemporaryDir dir;
        const QString path = brokenProject(dir, project("scale_gelu") + "/op.json");
        QFile reference(dir.filePath("reference.py"));
        QVERIFY(reference.open(QIODevice::WriteOnly | QIODevice::Truncate));
        reference.write("import torch\nfrom torch import Tensor\n\n\ndef scale_gelu_reference(x: "
                        "Tensor, scale: float, channels: int) -> Tensor:\n"
                        "    return torch.gelu_typo(x[:, :channels]) * scale\n");
        reference.close();
        const Run r = cli({"validate", path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.startsWith(dir.filePath("reference.py") + ":6:12: error: "),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("[reference.compile]"));
    }

    void validateUsageAndIoErrors()
    {
        QCOMPARE(cli({}).exitCode, 2);
        QCOMPARE(cli({"validate"}).exitCode, 2);
        QCOMPARE(cli({"validate", "/nonexistent/project"}).exitCode, 2);
        QTemporaryDir empty;
        const Run r = cli({"validate", empty.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("has no op.json")));
        QCOMPARE(cli({"frobnicate", project("softmax")}).exitCode, 2);
        QCOMPARE(cli({"--help"}).exitCode, 0);
        QCOMPARE(cli({"infer", project("softmax"), "--input"}).exitCode, 2);
    }

    void validateUnreadableOpJson()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("op.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": ");
        f.close();
        const Run r = cli({"validate", dir.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.startsWith(dir.filePath("op.json") + ":1:12: error: invalid JSON"));
    }

    void inferPrintsOutputs()
    {
        const Run r = cli({"infer", project("scale_gelu"), "--input", "x=4x64:float16", "--param",
                           "channels=32"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out,
                 QStringLiteral(
                     "{\"outputs\":[{\"name\":\"y\",\"shape\":[4,32],\"dtype\":\"float16\"}]}\n"));
    }

    void inferDefaultsAndDtypes()
    {
        // scale falls back to its default; the dtype falls back to the first allowed one.
        const Run r =
            cli({"infer", project("scale_gelu"), "--input=x=8,128", "--param", "channels=128"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out,
                 QStringLiteral(
                     "{\"outputs\":[{\"name\":\"y\",\"shape\":[8,128],\"dtype\":\"float16\"}]}\n"));
        const Run m =
            cli({"infer", project("matmul_bias"), "--input", "a=8x16:bfloat16", "--input",
                 "b=32x16:bfloat16", "--input", "bias=32:float32", "--param", "trans_b=true"});
        QCOMPARE(m.exitCode, 0);
        QCOMPARE(m.out,
                 QStringLiteral(
                     "{\"outputs\":[{\"name\":\"y\",\"shape\":[8,32],\"dtype\":\"float32\"}]}\n"));
    }

    void inferFailures()
    {
        const Run constraint = cli({"infer", project("scale_gelu"), "--input", "x=4x64:float16",
                                    "--param", "channels=99"});
        QCOMPARE(constraint.exitCode, 1);
        QVERIFY(constraint.err.contains(QStringLiteral("channels must be in 1..x.shape[1]")));
        QCOMPARE(constraint.out, QString());

        const Run dtype = cli(
            {"infer", project("scale_gelu"), "--input", "x=4x64:int32", "--param", "channels=3"});
        QCOMPARE(dtype.exitCode, 1);
        QVERIFY(dtype.err.contains(QStringLiteral("allowed: float16, float32")));

        const Run missingParam = cli({"infer", project("scale_gelu"), "--input", "x=4x64"});
        QCOMPARE(missingParam.exitCode, 2);
        QVERIFY(missingParam.err.contains(QStringLiteral("'channels' is required")));

        const Run missingInput = cli({"infer", project("scale_gelu"), "--param", "channels=3"});
        QCOMPARE(missingInput.exitCode, 2);
        QVERIFY(missingInput.err.contains(QStringLiteral("missing --input x=")));

        const Run unknownInput =
            cli({"infer", project("scale_gelu"), "--input", "xx=4x64", "--param", "channels=3"});
        QCOMPARE(unknownInput.exitCode, 2);
        QVERIFY(unknownInput.err.contains(QStringLiteral("did you mean 'x'")));

        const Run badParam =
            cli({"infer", project("scale_gelu"), "--input", "x=4x64", "--param", "channels=abc"});
        QCOMPARE(badParam.exitCode, 2);

        const Run unknownParam =
            cli({"infer", project("scale_gelu"), "--input", "x=4x64", "--param", "chanels=3"});
        QCOMPARE(unknownParam.exitCode, 2);
        QVERIFY(unknownParam.err.contains(QStringLiteral("did you mean 'channels'")));

        QTemporaryDir dir;
        const QString broken =
            brokenProject(dir, QStringLiteral(PTOWB_TEST_DATA "/spec_broken/rule_syntax.json"));
        const Run invalid = cli({"infer", broken, "--input", "x=4x64", "--param", "channels=3"});
        QCOMPARE(invalid.exitCode, 1);
        QVERIFY(invalid.err.contains(QStringLiteral(":11:60: error:")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
