// Import's bounds on the author's run: the memory the kernel worker may allocate, a finished
// test's tensors let go, and a benchmark loop of identical calls run twice, not ten times.
#include "import_test_support.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <utility>
#include <vector>

using namespace ptowb;
using namespace importtest;

class TestImportResources : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tensorsOfAFinishedTestAreFreed();
    void workerBoundsAllocationsNotMappings();
    void lastOfManyIdenticalCallsCompared();
};

void TestImportResources::tensorsOfAFinishedTestAreFreed()
{
    // The second test asserts that the first test's tensors are gone, as under pytest; held to
    // the end of the import, it would fail there and its call would be lost. The module tensor
    // both tests read is still found as an input of each call.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("biased"));
    const auto r = import(data("released_between_tests.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QVERIFY2(!find(r, "import.host-code"), qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonArray cases = readOp(out)[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    QCOMPARE(
        cases[1][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("shape")].toArray(),
        (QJsonArray{32, 32}));
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("golden"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportResources::workerBoundsAllocationsNotMappings()
{
    // Three quarters of the RAM, allocated or as shared memory, is over the worker's limits and
    // fails at its line; a mapping that takes the address space past half the RAM, which an
    // address-space limit of half the RAM refused, is made and its test's call is the case.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("doubled"));
    const auto r = import(data("memory_bounds.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    std::vector<std::pair<int, std::string>> refused;
    for (const auto& d : r.diagnostics)
        if (d.code == "import.host-code") refused.emplace_back(d.line, d.message);
    QVERIFY2(refused.size() == 2, qPrintable(describe(r)));
    QCOMPARE(refused[0].first, 43);
    QVERIFY2(refused[0].second.find("test_allocation_over_the_limit") == 0 &&
                 refused[0].second.find("allocate") != std::string::npos,
             refused[0].second.c_str());
    QCOMPARE(refused[1].first, 49);
    QVERIFY2(refused[1].second.find("test_shared_memory_over_the_limit") == 0,
             refused[1].second.c_str());
    const QJsonArray cases = readOp(out)[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QCOMPARE(cases[0][QStringLiteral("name")].toString(),
             QStringLiteral("test_mapping_past_half_the_ram"));
}

void TestImportResources::lastOfManyIdenticalCallsCompared()
{
    // Ten calls on the same inputs, and only the last one's output compared, reshaped: the
    // simulator runs the first (and import's check of which tensors it writes), the others take
    // its results, and their outputs are its outputs, so the comparison gives the tolerance and
    // the reference. A call on other values runs.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("benchmark_loop.py"), out, "scale_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                 .toDouble(),
             2e-3);
    // The first call, import's check of what it writes, and the second call, which confirms the
    // first one's results: the other eight take them.
    const QRegularExpressionMatch runs = QRegularExpression(QStringLiteral("body runs: (\\d+)"))
                                             .match(QString::fromStdString(r.log));
    QVERIFY2(runs.hasMatch() && runs.captured(1).toInt() <= 4, r.log.c_str());
    // Kernels a factory makes with other factors are other kernels: the file's own check of each
    // passes.
    QVERIFY2(!find(r, "import.host-code"), qPrintable(describe(r)));
    // The test compares the output reshaped: the reference reshapes its expression back.
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains(".reshape(-1, 16)).reshape(x.shape)"), reference.constData());
    verifyPassesThenFailsAfter(out + QStringLiteral("/benchmark_loop.py"), "pypto.mul(x, 1.5)",
                               "pypto.mul(x, 1.25)");
}

QTEST_GUILESS_MAIN(TestImportResources)
#include "tst_import_resources.moc"
