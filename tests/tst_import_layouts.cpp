// Import: where a kernel file's tests are found in the layouts repositories keep them in (test
// files beside it, a tests/ folder beside its folder, a tests/ tree mirroring the source tree, a
// test that reaches it through a wrapper module), and what they give the project.
#include "import_test_support.h"
#include "importer/kernel_import.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

using namespace ptowb;
using namespace ptowb::importer;
using namespace importtest;

namespace {
// Whether import says it recorded its calls by running the test file `name`.
bool recordedBy(const ImportResult& r, const std::string& name)
{
    return std::find(r.inferred.begin(), r.inferred.end(),
                     "calls recorded by running " + name + ", which imports the kernel file") !=
           r.inferred.end();
}
} // namespace

class TestImportLayouts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void testsBesideTheKernelFile();
    void testsInAFolderBesideTheKernelsFolder();
    void testsInATreeMirroringTheSources();
    void testImportingAWrapperOfTheKernelFile();
};

void TestImportLayouts::testsBesideTheKernelFile()
{
    // scale_impl.py has no host code; test_scale.py beside it imports it and tests it.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("split/scale_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY(recordedBy(r, "test_scale.py"));
    // The test file's own failure is reported at its line, in it.
    const Diagnostic* failed = find(r, "import.host-code");
    QVERIFY2(failed, qPrintable(describe(r)));
    QVERIFY2(QString::fromStdString(failed->file).endsWith(QStringLiteral("split/test_scale.py")),
             failed->file.c_str());
    QCOMPARE(failed->line, 22);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("cases")].toArray().size(), 2);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                 .toDouble(),
             1e-5);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("# scale_golden, from test_scale.py line 9"),
             reference.constData());
    QVERIFY2(reference.contains("return x * factor + 0.0"), reference.constData());
    // The project is the kernel file; the test file stays where it is.
    QVERIFY(QFile::exists(out + QStringLiteral("/scale_impl.py")));
    QVERIFY(!QFile::exists(out + QStringLiteral("/test_scale.py")));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportLayouts::testsInAFolderBesideTheKernelsFolder()
{
    // src/shift_impl.py is tested by tests/test_shift.py, which puts ../src and ../golden on its
    // path: an operator repository's layout, with the golden in a module of its own.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("shift"));
    const auto r = import(data("src_and_tests/src/shift_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(recordedBy(r, "test_shift.py"), qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("cases")].toArray().size(), 2);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("atol")]
                 .toDouble(),
             1e-6);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return x + 1.5"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportLayouts::testsInATreeMirroringTheSources()
{
    // src/kernels/ops/tile/vector/halve/halve_impl.py is tested by tests/ops/vector/halve/
    // test_halve.py, which imports it as vector.halve.halve_impl, its golden from beside it, and
    // its cases from cases.json beside it by a relative path.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("src_mirror/src/kernels/ops/tile/vector/halve/halve_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(recordedBy(r, "test_halve.py"), qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("cases")].toArray().size(), 2);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return x * 0.5"), reference.constData());
    // A test function of the test file that cannot run is said at its line in that file.
    const auto unmade = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [](auto& d) {
        return d.message.find("test_on_card needs card") != std::string::npos;
    });
    QVERIFY2(unmade != r.diagnostics.end(), qPrintable(describe(r)));
    QVERIFY2(QString::fromStdString(unmade->file).endsWith(QStringLiteral("halve/test_halve.py")) &&
                 unmade->line == 31,
             qPrintable(QString::fromStdString(unmade->file)));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportLayouts::testImportingAWrapperOfTheKernelFile()
{
    // tests/ops/vector/twice/test_twice.py imports vector.twice.twice_wrapper, the module beside
    // twice_impl.py that imports it by name: the test runs the kernel file.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("twice"));
    const auto r = import(data("src_mirror/src/kernels/ops/tile/vector/twice/twice_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QVERIFY2(recordedBy(r, "test_twice.py"), qPrintable(describe(r)));
    QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 2);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

QTEST_GUILESS_MAIN(TestImportLayouts)
#include "tst_import_layouts.moc"
