// Two .npy files compared as they are read (tensor/compare_files.h): the same comparison as of
// the tensors in memory, whatever the blocks; a file truncated before or while it is read is an
// error naming it; and an error that is a constant scale or offset is named (uniformError).
#include "tensor/compare.h"
#include "tensor/compare_files.h"
#include "tensor/npy.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

using namespace ptowb;

namespace {

Tensor randomTensor(DType dtype, std::int64_t n, unsigned seed, double scale = 1, double offset = 0,
                    double noise = 0)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    Tensor t(dtype, {n});
    for (std::int64_t k = 0; k < n; ++k)
        t.set(k, normal(rng) * scale + offset + noise * normal(rng));
    return t;
}

// `actual` is `expected` with a relative error of up to 4e-3, and some NaN and Inf on either side.
Tensor perturbed(const Tensor& expected, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-4e-3, 4e-3);
    Tensor a(expected.dtype(), expected.shape());
    for (std::int64_t k = 0; k < a.numel(); ++k)
        a.set(k, expected.at(k) * (1 + u(rng)));
    if (a.numel() > 5000) {
        a.set(17, std::nan(""));
        a.set(4099, INFINITY);
        a.set(a.numel() - 3, -INFINITY);
    }
    return a;
}

CompareOptions options()
{
    CompareOptions o;
    o.topK = 12;
    return o;
}

bool close(double a, double b)
{
    return a == b || std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

void compareEqual(const Comparison& x, const Comparison& y)
{
    QCOMPARE(x.shapesMatch, y.shapesMatch);
    const ErrorMetrics &m = x.metrics, &n = y.metrics;
    QCOMPARE(m.elements, n.elements);
    QCOMPARE(m.finitePairs, n.finitePairs);
    QCOMPARE(m.mismatchCount, n.mismatchCount);
    QCOMPARE(m.maxAbsError, n.maxAbsError);
    QCOMPARE(m.maxRelError, n.maxRelError);
    QCOMPARE(m.maxUlp, n.maxUlp);
    QCOMPARE(m.doubleThousandthRatio, n.doubleThousandthRatio);
    QCOMPARE(m.nanActual + m.nanExpected + m.infActual + m.infExpected,
             n.nanActual + n.nanExpected + n.infActual + n.infExpected);
    // Sums are added in another order: equal to rounding.
    QVERIFY(close(m.meanAbsError, n.meanAbsError));
    QVERIFY(close(m.meanRelError, n.meanRelError));
    QVERIFY(close(m.rmse, n.rmse));
    QVERIFY(close(m.cosine, n.cosine));
    QVERIFY(close(m.relEuclidean, n.relEuclidean));
    QCOMPARE(x.worst.size(), y.worst.size());
    for (std::size_t k = 0; k < x.worst.size(); ++k) {
        QCOMPARE(x.worst[k].index, y.worst[k].index);
        QCOMPARE(x.worst[k].actual, y.worst[k].actual);
        QCOMPARE(x.worst[k].expected, y.worst[k].expected);
        QCOMPARE(x.worst[k].absError, y.worst[k].absError);
    }
}

struct CliRun
{
    int exitCode;
    bool crashed;
    QString out, err;
};

CliRun cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(60000)) p.kill();
    p.waitForFinished();
    return {p.exitCode(), p.exitStatus() != QProcess::NormalExit,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestCompareFiles : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString save(const char* name, const Tensor& t)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        if (!writeNpy(path.toStdString(), t).empty()) qFatal("cannot write %s", name);
        return path;
    }

private Q_SLOTS:
    void blocksGiveTheWholeComparison_data()
    {
        QTest::addColumn<int>("actualDType");
        QTest::addColumn<int>("expectedDType");
        QTest::addColumn<qint64>("blockBytes");
        const auto f32 = int(DType::Float32), f16 = int(DType::Float16);
        QTest::newRow("float32, 4 KiB blocks") << f32 << f32 << qint64(4096);
        QTest::newRow("float32, one block") << f32 << f32 << qint64(8 << 20);
        QTest::newRow("float16, odd blocks") << f16 << f16 << qint64(1001);
        QTest::newRow("bfloat16") << int(DType::BFloat16) << int(DType::BFloat16) << qint64(6000);
        QTest::newRow("float64") << int(DType::Float64) << int(DType::Float64) << qint64(8192);
        QTest::newRow("int32") << int(DType::Int32) << int(DType::Int32) << qint64(4096);
        QTest::newRow("float16 vs float32") << f16 << f32 << qint64(4096);
    }

    void blocksGiveTheWholeComparison()
    {
        QFETCH(int, actualDType);
        QFETCH(int, expectedDType);
        QFETCH(qint64, blockBytes);
        const std::int64_t n = 100003; // no multiple of any block or chunk
        const Tensor expected = randomTensor(DType(expectedDType), n, 7, 50);
        Tensor actual = perturbed(expected, 8);
        if (actualDType != expectedDType) {
            Tensor converted(DType(actualDType), {n});
            for (std::int64_t k = 0; k < n; ++k)
                converted.set(k, actual.at(k));
            actual = converted;
        }
        const QString a = save("a.npy", actual), e = save("e.npy", expected);
        const auto files =
            compareNpyFiles(a.toStdString(), e.toStdString(), options(), std::size_t(blockBytes));
        if (const auto* error = std::get_if<std::string>(&files)) QFAIL(error->c_str());
        const Comparison& streamed = std::get<Comparison>(files);
        QVERIFY(streamed.metrics.mismatchCount > 0);
        compareEqual(streamed, compareTensors(actual, expected, options()));
    }

    void shapesThatDifferAreAVerdict()
    {
        const QString a = save("a.npy", Tensor(DType::Float32, {4, 6}));
        const QString e = save("e.npy", Tensor(DType::Float32, {6, 4}));
        const auto r = compareNpyFiles(a.toStdString(), e.toStdString(), options());
        QVERIFY(std::holds_alternative<Comparison>(r));
        QVERIFY(!std::get<Comparison>(r).shapesMatch);
    }

    // Truncated before it is opened: its header promises more than it holds.
    void truncatedFileIsAnError()
    {
        const Tensor t = randomTensor(DType::Float32, 50000, 1);
        const QString a = save("a.npy", t), e = save("e.npy", t);
        QVERIFY(QFile::resize(a, QFileInfo(a).size() - 1000));
        const auto r = compareNpyFiles(a.toStdString(), e.toStdString(), options());
        QVERIFY(std::holds_alternative<std::string>(r));
        const std::string& error = std::get<std::string>(r);
        QVERIFY2(error.find(a.toStdString()) == 0 && error.find("truncated") != std::string::npos,
                 error.c_str());
        const CliRun run = cli({QStringLiteral("compare"), a, e});
        QVERIFY2(!run.crashed && run.exitCode == 2 && run.err.contains(a) &&
                     run.err.contains(QStringLiteral("truncated")),
                 qPrintable(run.err));
    }

    // Truncated by another process after it was opened, while it is read: an error, no SIGBUS.
    void fileTruncatedWhileReadIsAnError()
    {
        const Tensor t = randomTensor(DType::Float32, 50000, 2);
        const QString a = save("a.npy", t), e = save("e.npy", t);
        auto actual = NpyBlockReader::open(a.toStdString());
        auto expected = NpyBlockReader::open(e.toStdString());
        QVERIFY(std::holds_alternative<NpyBlockReader>(actual));
        QVERIFY(std::holds_alternative<NpyBlockReader>(expected));
        QVERIFY(QFile::resize(e, 20000));
        const auto r = compareNpyFiles(std::get<NpyBlockReader>(actual),
                                       std::get<NpyBlockReader>(expected), options(), 4096);
        QVERIFY(std::holds_alternative<std::string>(r));
        QCOMPARE(std::get<std::string>(r), e.toStdString() + ": the file shrank while it was read");
    }

    // Real arrays: a kernel off by a factor of two, or by 0.5, is named; noise is not.
    void uniformErrorIsNamed()
    {
        const std::int64_t n = 20000;
        const Tensor expected = randomTensor(DType::Float32, n, 3);
        const Tensor doubled = randomTensor(DType::Float32, n, 3, 2);
        const Tensor shifted = randomTensor(DType::Float32, n, 3, 1, 0.5);
        const Tensor both = randomTensor(DType::Float32, n, 3, 3, -1);
        const Tensor noisy = randomTensor(DType::Float32, n, 3, 1, 0, 0.05);
        const Criteria criteria = defaultCriteria(DType::Float32);

        const Comparison scale = compareTensors(doubled, expected, options());
        QVERIFY(scale.uniformError);
        QCOMPARE(scale.uniformError->describe(), std::string("actual ≈ 2.000 × expected"));
        QVERIFY(std::fabs(scale.uniformError->scale - 2) < 1e-6);
        const Verdict v = judge(scale, criteria);
        QVERIFY(!v.pass);
        QVERIFY2(v.reason.find("; actual ≈ 2.000 × expected") != std::string::npos,
                 v.reason.c_str());

        const Comparison offset = compareTensors(shifted, expected, options());
        QVERIFY(offset.uniformError);
        QCOMPARE(offset.uniformError->describe(), std::string("actual ≈ expected + 0.5"));

        const Comparison affine = compareTensors(both, expected, options());
        QVERIFY(affine.uniformError);
        QCOMPARE(affine.uniformError->describe(), std::string("actual ≈ 3.000 × expected − 1"));

        const Comparison noise = compareTensors(noisy, expected, options());
        QVERIFY(noise.metrics.mismatchCount > 0);
        QVERIFY(!noise.uniformError);

        // Within the tolerance there is nothing to name.
        QVERIFY(!compareTensors(expected, expected, options()).uniformError);
    }

    void cliNamesTheUniformError()
    {
        const QString a = save("a.npy", randomTensor(DType::Float32, 5000, 4, 2));
        const QString e = save("e.npy", randomTensor(DType::Float32, 5000, 4));
        const CliRun text = cli({QStringLiteral("compare"), a, e});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(QStringLiteral("uniform error: actual ≈ 2.000 × expected")),
                 qPrintable(text.out));
        const CliRun json = cli({QStringLiteral("compare"), a, e, QStringLiteral("--json")});
        QVERIFY2(json.out.contains(QStringLiteral("\"summary\": \"actual ≈ 2.000 × expected\"")),
                 qPrintable(json.out));
    }
};

QTEST_GUILESS_MAIN(TestCompareFiles)
#include "tst_compare_files.moc"
