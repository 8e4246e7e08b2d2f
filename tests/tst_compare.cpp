// compare(): every metric against a float64 NumPy computation, NaN/Inf accounting, worst
// elements, ULPs, verdict rules and per-dtype defaults.
#include "run/reports.h"
#include "tensor/compare.h"
#include "tensor/error_map.h"
#include "tensor/npy.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <numeric>
#include <random>

using namespace ptowb;

namespace {

Tensor tensorOf(DType dtype, std::vector<std::int64_t> shape, const std::vector<double>& values)
{
    Tensor t(dtype, std::move(shape));
    for (std::size_t k = 0; k < values.size(); ++k)
        t.set(std::int64_t(k), values[k]);
    return t;
}

Comparison run(const Tensor& a, const Tensor& e, double rtol = 1e-3, double atol = 1e-3,
               int topK = 10)
{
    CompareOptions o;
    o.rtol = rtol;
    o.atol = atol;
    o.topK = topK;
    return compareTensors(a, e, o);
}

bool closeRel(double a, double b, double rel = 1e-6)
{
    return std::fabs(a - b) <= rel * std::max({std::fabs(a), std::fabs(b), 1e-300});
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    // The heatmap's data: max-pooled so the worst element of a large tensor stays visible,
    // over any 2-D slice of an N-d output, the same with and without the threaded float path.
    void errorMapKeepsTheWorstElement()
    {
        for (DType dtype : {DType::Float32, DType::Float64}) {
            Tensor e(dtype, {3, 700, 900}), a(dtype, {3, 700, 900});
            a.set(1 * 700 * 900 + 611 * 900 + 7, 0.25); // the worst, in slice 1
            a.set(1 * 700 * 900 + 5 * 900 + 800, 0.125);
            a.set(2 * 700 * 900 + 0, std::nan("")); // another slice: not in the map
            SliceSpec slice;
            slice.rowAxis = 1;
            slice.colAxis = 2;
            slice.fixed = {1, 0, 0};
            const ErrorMap map = computeErrorMap(a, e, slice, 256, 256);
            QVERIFY(map.error.empty());
            QCOMPARE(map.rows, 700);
            QCOMPARE(map.cols, 900);
            QCOMPARE(map.cellRows, 3);
            QCOMPARE(map.cellCols, 4);
            QCOMPARE(map.gridRows, 234);
            QCOMPARE(map.gridCols, 225);
            QCOMPARE(map.maxError, 0.25);
            QCOMPARE(map.worstIndex, (std::vector<std::int64_t>{1, 611, 7}));
            QCOMPARE(map.cell(611 / 3, 7 / 4), 0.25f);
            QCOMPARE(map.cell(5 / 3, 800 / 4), 0.125f);
            int nonZero = 0;
            for (float c : map.cells)
                nonZero += c > 0;
            QCOMPARE(nonZero, 2);
            slice.fixed = {2, 0, 0}; // the NaN disagreement is an infinite error
            QVERIFY(std::isinf(computeErrorMap(a, e, slice, 256, 256).maxError));
            slice.relative = true;
            slice.fixed = {1, 0, 0};
            QCOMPARE(computeErrorMap(a, e, slice, 256, 256).maxError,
                     0.0); // |e| = 0: relative error 0
        }
        Tensor a(DType::Float16, {4}), e(DType::Float16, {4});
        a.set(2, 1.0);
        SliceSpec slice;
        const ErrorMap vector = computeErrorMap(a, e, slice, 10, 10);
        QCOMPARE(vector.rows, 1);
        QCOMPARE(vector.cols, 4);
        QCOMPARE(vector.worstIndex, (std::vector<std::int64_t>{2}));
        slice.fixed = {9};
        slice.rowAxis = slice.colAxis = 0;
        QVERIFY(!computeErrorMap(Tensor(DType::Float32, {2, 2}), Tensor(DType::Float32, {2, 2}),
                                 slice, 10, 10)
                     .error.empty());
        QVERIFY(!computeErrorMap(Tensor(DType::Float32, {2, 2}), Tensor(DType::Float32, {2, 3}),
                                 SliceSpec{}, 10, 10)
                     .error.empty());
        const ErrorHistogram h = errorHistogram(a, e);
        QCOMPARE(h.counts.front(), 3); // exact
        QCOMPARE(std::accumulate(h.counts.begin(), h.counts.end(), std::int64_t(0)), 4);
    }

    void identicalTensors()
    {
        const Tensor a = tensorOf(DType::Float32, {2, 2}, {1, -2, 3, 4});
        const Comparison c = run(a, a);
        QVERIFY(c.shapesMatch);
        QCOMPARE(c.metrics.maxAbsError, 0.0);
        QCOMPARE(c.metrics.cosine, 1.0);
        QCOMPARE(c.metrics.mismatchCount, std::int64_t(0));
        QCOMPARE(*c.metrics.maxUlp, 0.0);
        QCOMPARE(c.metrics.doubleThousandthRatio, 1.0);
        QVERIFY(judge(c, defaultCriteria(DType::Float32)).pass);
    }

    void hand_computed_metrics()
    {
        const Tensor a = tensorOf(DType::Float64, {4}, {1.0, 2.0, 3.5, 0.0});
        const Tensor e = tensorOf(DType::Float64, {4}, {1.0, 2.5, 3.0, 0.0});
        const ErrorMetrics m = run(a, e, 0, 0.1).metrics;
        QCOMPARE(m.maxAbsError, 0.5);
        QCOMPARE(m.meanAbsError, 0.25);
        QCOMPARE(m.maxRelError, 0.2); // 0.5 / 2.5
        QVERIFY(closeRel(m.meanRelError, (0.2 + 0.5 / 3.0) / 4));
        QCOMPARE(m.rmse, std::sqrt(0.5 / 4));
        QVERIFY(closeRel(m.cosine,
                         (1 + 5 + 10.5) / (std::sqrt(1 + 4 + 12.25) * std::sqrt(1 + 6.25 + 9))));
        QVERIFY(closeRel(m.relEuclidean, std::sqrt(0.5 / (1 + 6.25 + 9))));
        QCOMPARE(m.mismatchCount, std::int64_t(2));
        QCOMPARE(m.mismatchRatio, 0.5);
        QCOMPARE(m.doubleThousandthRatio, 0.5); // 1.0 and 0.0 (|e| below the floor counts as 0)
    }

    void matchesNumPy_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<bool>("specials");
        QTest::newRow("float32") << "float32" << false;
        QTest::newRow("float32 with NaN and Inf") << "float32" << true;
        QTest::newRow("float16") << "float16" << false;
        QTest::newRow("float64") << "float64" << true;
        QTest::newRow("int32") << "int32" << false;
        QTest::newRow("large float32, multithreaded") << "float32-large" << false;
    }

    void matchesNumPy()
    {
        QFETCH(QString, dtype);
        QFETCH(bool, specials);
        const bool large = dtype.endsWith("-large");
        const DType d = *dtypeFromName(dtype.section('-', 0, 0).toStdString());
        const std::int64_t n = large ? 3'000'001 : 10'007;
        std::mt19937_64 rng(42);
        std::normal_distribution<double> normal(0.0, 3.0);
        Tensor a(d, {n}), e(d, {n});
        for (std::int64_t k = 0; k < n; ++k) {
            const double v = normal(rng);
            e.set(k, isFloating(d) ? v : std::round(v * 10));
            a.set(k, isFloating(d) ? v * (1 + 1e-3 * normal(rng)) + 1e-4 * normal(rng)
                                   : std::round(v * 10) + (k % 97 == 0 ? 1 : 0));
        }
        if (specials) {
            a.set(3, std::nan(""));
            e.set(5, std::nan(""));
            a.set(7, HUGE_VAL);
            e.set(7, HUGE_VAL);
            a.set(11, -HUGE_VAL);
            e.set(13, 0.0);
        }
        QTemporaryDir dir;
        const std::string pa = dir.filePath("a.npy").toStdString(),
                          pe = dir.filePath("e.npy").toStdString();
        QCOMPARE(writeNpy(pa, a), std::string());
        QCOMPARE(writeNpy(pe, e), std::string());
        QProcess p;
        p.start("/usr/bin/python3",
                {PTOWB_SOURCE_DIR "/tests/tools/compare_metrics.py", QString::fromStdString(pa),
                 QString::fromStdString(pe), "0.001", "0.0001"});
        // Debian's python3 and numpy are what ./setup.sh test installs: their absence fails, and
        // so does NumPy refusing a file our writer made.
        QVERIFY2(p.waitForFinished(120000), qPrintable(p.errorString()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable("compare_metrics.py failed: " + p.readAllStandardError()));
        const QJsonObject want = QJsonDocument::fromJson(p.readAllStandardOutput()).object();

        const Comparison c = run(a, e, 1e-3, 1e-4);
        const auto got = comparisonJson(c, judge(c, defaultCriteria(d)))["metrics"];
        for (const QString& key : want.keys()) {
            const double expected = want[key].toDouble();
            const double actual = got[key.toStdString()].get<double>();
            QVERIFY2(closeRel(actual, expected, 1e-6) || std::fabs(actual - expected) < 1e-12,
                     qPrintable(QStringLiteral("%1: %2 vs numpy %3")
                                    .arg(key)
                                    .arg(actual, 0, 'g', 17)
                                    .arg(expected, 0, 'g', 17)));
        }
    }

    void nanAndInfAccounting()
    {
        const Tensor a = tensorOf(DType::Float32, {5}, {NAN, HUGE_VAL, 1, -HUGE_VAL, NAN});
        const Tensor e = tensorOf(DType::Float32, {5}, {1, HUGE_VAL, 1, 2, NAN});
        const Comparison c = run(a, e);
        QCOMPARE(c.metrics.nanActual, std::int64_t(2));
        QCOMPARE(c.metrics.nanExpected, std::int64_t(1));
        QCOMPARE(c.metrics.infActual, std::int64_t(2));
        QCOMPARE(c.metrics.infExpected, std::int64_t(1));
        QCOMPARE(c.metrics.finitePairs, std::int64_t(1));
        QCOMPARE(c.metrics.mismatchCount,
                 std::int64_t(3)); // NaN vs 1, -Inf vs 2, NaN vs NaN; +Inf == +Inf
        const Verdict v = judge(c, defaultCriteria(DType::Float32));
        QVERIFY(!v.pass);
        QVERIFY(v.reason.find("NaN") != std::string::npos);
        QVERIFY(std::isinf(c.worst.front().absError));
    }

    // NaN where the reference has NaN counts as a mismatch, as in torch.allclose without
    // equal_nan; the verdict says that is all that differs.
    void nanOnBothSidesIsNamed()
    {
        const Tensor a = tensorOf(DType::Float16, {4}, {NAN, 1, 2, NAN});
        const Tensor e = tensorOf(DType::Float16, {4}, {NAN, 1, 2, NAN});
        const Comparison c = run(a, e);
        QCOMPARE(c.metrics.nanBoth, std::int64_t(2));
        QCOMPARE(c.metrics.mismatchCount, std::int64_t(2));
        const Verdict v = judge(c, defaultCriteria(DType::Float16));
        QVERIFY(!v.pass);
        QCOMPARE(v.reason, std::string("2 of 4 elements exceed atol + rtol*|expected| (max abs "
                                       "error 0); 2 of them NaN on both sides, which allclose "
                                       "counts as unequal"));
        QCOMPARE(run(tensorOf(DType::Float16, {2}, {NAN, 1}), tensorOf(DType::Float16, {2}, {0, 1}))
                     .metrics.nanBoth,
                 std::int64_t(0));
    }

    void worstElementsWithIndices()
    {
        Tensor e(DType::Float32, {3, 4});
        Tensor a(DType::Float32, {3, 4});
        a.set(6, 5.0);   // [1, 2]
        a.set(11, -2.0); // [2, 3]
        a.set(0, 0.5);   // [0, 0]
        const Comparison c = run(a, e, 1e-3, 1e-3, 2);
        QCOMPARE(c.worst.size(), std::size_t(2));
        QCOMPARE(c.worst[0].index, (std::vector<std::int64_t>{1, 2}));
        QCOMPARE(c.worst[0].actual, 5.0);
        QCOMPARE(c.worst[0].absError, 5.0);
        QCOMPARE(c.worst[1].index, (std::vector<std::int64_t>{2, 3}));
        // Many threads, many candidates: still the global top-K, in order.
        Tensor big(DType::Float32, {4'000'000}), zero(DType::Float32, {4'000'000});
        for (std::int64_t k = 0; k < big.numel(); k += 1000)
            big.set(k, double(k) / 1e6);
        const Comparison cb = run(big, zero, 0, 0, 5);
        QCOMPARE(cb.worst.size(), std::size_t(5));
        QCOMPARE(cb.worst[0].index, std::vector<std::int64_t>{3'999'000});
        QCOMPARE(cb.worst[4].index, std::vector<std::int64_t>{3'995'000});
    }

    void ulps()
    {
        const Tensor a = tensorOf(DType::Float16, {3}, {1.0, -1.0, 0.0});
        Tensor e = a;
        e.mutableValues<std::uint16_t>()[0] = 0x3c03; // 3 ulps above 1.0
        e.mutableValues<std::uint16_t>()[2] = 0x8001; // smallest negative subnormal: 1 ulp from +0
        QCOMPARE(*run(a, e).metrics.maxUlp, 3.0);
        const Tensor f = tensorOf(DType::Float32, {1}, {1.0});
        const Tensor g = tensorOf(DType::Float32, {1}, {std::nextafter(1.0f, 2.0f)});
        QCOMPARE(*run(f, g).metrics.maxUlp, 1.0);
        const Tensor i = tensorOf(DType::Int32, {2}, {10, 3});
        const Tensor j = tensorOf(DType::Int32, {2}, {7, 3});
        QCOMPARE(*run(i, j).metrics.maxUlp, 3.0);
        QVERIFY(!run(f, tensorOf(DType::Float64, {1}, {1.0}))
                     .metrics.maxUlp); // different dtypes: no ULP
    }

    void shapeAndDTypeMismatchAreVerdicts()
    {
        const Comparison shape =
            run(Tensor(DType::Float32, {4, 32}), Tensor(DType::Float32, {4, 64}));
        QVERIFY(!shape.shapesMatch);
        const Verdict v = judge(shape, defaultCriteria(DType::Float32));
        QVERIFY(!v.pass);
        QCOMPARE(v.reason, std::string("shape [4, 32] differs from the expected [4, 64]"));
        QCOMPARE(comparisonJson(shape, v)["metrics"], nlohmann::ordered_json(nullptr));
        const Comparison dtype = run(Tensor(DType::Float16, {2}), Tensor(DType::Float32, {2}));
        QVERIFY(dtype.shapesMatch);
        QVERIFY(
            judge(dtype, defaultCriteria(DType::Float32)).reason.find("dtype float16 differs") !=
            std::string::npos);
    }

    void criteria()
    {
        // 10 elements, one off by 0.5: allclose fails, ratio 0.1 passes only with a loose limit.
        std::vector<double> values(10, 1.0);
        const Tensor e = tensorOf(DType::Float32, {10}, values);
        values[3] = 1.5;
        const Tensor a = tensorOf(DType::Float32, {10}, values);
        const Comparison c = run(a, e);
        Criteria crit = defaultCriteria(DType::Float32);
        QVERIFY(!judge(c, crit).pass);
        crit.names = {"ratio"};
        QVERIFY(!judge(c, crit).pass);
        crit.maxErrorRatio = 0.1;
        QVERIFY(judge(c, crit).pass);
        crit.names = {"cosine"};
        crit.minCosine = 0.999;
        QVERIFY(!judge(c, crit).pass); // cosine = 10.5 / sqrt(11.25 * 10) = 0.98995
        crit.minCosine = 0.98;
        QVERIFY(judge(c, crit).pass);
        crit.names = {"double_thousandth"};
        QVERIFY(!judge(c, crit).pass); // 0.9 within 0.1%
        crit.names = {"cosine", "allclose"};
        const Verdict both = judge(c, crit);
        QVERIFY(!both.pass);
        QCOMPARE(both.rule, std::string("cosine >= 0.98 and allclose(rtol=0.001, atol=0.001)"));
        QVERIFY(both.reason.find("1 of 10 elements exceed") != std::string::npos);
    }

    void passVerification()
    {
        // PyPTO's pass verification of PyPTO's interleave_rope test: 512 elements, [0.008, 0.001].
        // min(rtol, atol) of 512 rounds down to none, so sqrt(512) / 2 = 11 may be off.
        Criteria crit;
        crit.names = {"pass_verify"};
        crit.rtol = 0.008;
        crit.atol = 0.001;
        const auto compared = [&](int n, int zeros, int off, double by, DType actualDType) {
            std::vector<double> expected(std::size_t(n), 0.0), actual;
            for (int k = zeros; k < n; ++k)
                expected[std::size_t(k)] = 1.0 + 0.25 * (k % 4);
            actual = expected;
            for (int k = 0; k < off; ++k)
                actual[std::size_t(zeros + k)] += by;
            return compareTensors(tensorOf(actualDType, {n}, actual),
                                  tensorOf(DType::Float32, {n}, expected), compareOptionsFor(crit));
        };
        const auto judged = [&](int n, int zeros, int off, double by) {
            return judge(compared(n, zeros, off, by, DType::Float32), crit);
        };
        // Off by 0.03: beyond (|a| + |e|) * 0.004 + 0.001 (at most 0.0211 here), within 128 times.
        const Verdict eleven = judged(512, 0, 11, 0.03);
        QVERIFY2(eleven.pass, eleven.reason.c_str());
        const Verdict twelve = judged(512, 0, 12, 0.03);
        QVERIFY(!twelve.pass);
        QVERIFY2(twelve.reason.find("12 of 512 elements exceed") != std::string::npos &&
                     twelve.reason.find("more than the 11 allowed") != std::string::npos,
                 twelve.reason.c_str());
        QCOMPARE(twelve.rule, std::string("pass_verify(rtol=0.008, atol=0.001)"));
        // Its bound is not allclose's: every element off by 0.00903 is beyond atol + rtol*|e| =
        // 0.009 at 1.0, and within (|a| + |e|) * 0.004 + 0.001 = 0.009036 there.
        QVERIFY(judged(512, 0, 512, 0.00903).pass);
        // Pairs that are both zero are not counted: 1536 of them beside 512 others still allow
        // 11 off, where counting all 2048 would allow floor(2.048) = 2.
        QVERIFY(judged(2048, 1536, 11, 0.03).pass);
        // One pair off by more than 128 times its tolerance fails whatever the count.
        const Verdict far = judged(512, 0, 1, 5.0);
        QVERIFY(!far.pass);
        QVERIFY2(far.reason.find("more than 128 times") != std::string::npos, far.reason.c_str());
        // A share of min(rtol, atol) when it is one: 100000 pairs, 0.001 -> 100.
        QVERIFY(judged(100000, 0, 100, 0.03).pass);
        QVERIFY(!judged(100000, 0, 101, 0.03).pass);
        // The per-element path (float64 against float32) counts as the vector one does.
        for (const double by : {0.03, 5.0}) {
            const ErrorMetrics vector = compared(2048, 1536, 12, by, DType::Float32).metrics;
            const ErrorMetrics element = compared(2048, 1536, 12, by, DType::Float64).metrics;
            QCOMPARE(element.passVerifyErrors, vector.passVerifyErrors);
            QCOMPARE(element.passVerifyFailures, vector.passVerifyFailures);
            QCOMPARE(element.zeroPairs, std::int64_t(1536));
            QCOMPARE(vector.zeroPairs, std::int64_t(1536));
        }
        // A comparison made without the counts cannot pass it, even where the values agree.
        const Tensor same = tensorOf(DType::Float32, {4}, {1, 2, 3, 4});
        const Verdict uncounted = judge(compareTensors(same, same, {}), crit);
        QVERIFY(!uncounted.pass);
        QVERIFY2(uncounted.reason.find("without its counts") != std::string::npos,
                 uncounted.reason.c_str());
    }

    void defaultsAndOverrides()
    {
        QCOMPARE(defaultCriteria(DType::Float16).rtol, 1e-3);
        QCOMPARE(defaultCriteria(DType::BFloat16).atol, 1e-2);
        QCOMPARE(defaultCriteria(DType::Int32).atol, 0.0);
        ToleranceSpec tol;
        tol.perDType[DType::Float16] = {5e-3, 1e-4};
        tol.criteria = {"allclose", "cosine"};
        tol.minCosine = 0.99;
        const Criteria c = criteriaFor(tol, DType::Float16);
        QCOMPARE(c.rtol, 5e-3);
        QCOMPARE(c.atol, 1e-4);
        QCOMPARE(c.minCosine, 0.99);
        QCOMPARE(c.names, (std::vector<std::string>{"allclose", "cosine"}));
        QCOMPARE(criteriaFor(tol, DType::Float32).rtol, 1e-3); // no override for float32
    }

    void emptyAndBool()
    {
        const Comparison empty =
            run(Tensor(DType::Float32, {0, 3}), Tensor(DType::Float32, {0, 3}));
        QVERIFY(judge(empty, defaultCriteria(DType::Float32)).pass);
        const Tensor t = tensorOf(DType::Bool, {3}, {1, 0, 1});
        const Tensor f = tensorOf(DType::Bool, {3}, {1, 1, 1});
        const Comparison b = run(t, f, 0, 0);
        QCOMPARE(b.metrics.mismatchCount, std::int64_t(1));
        QVERIFY(!judge(b, defaultCriteria(DType::Bool)).pass);
    }

    // An intermediate's summary and |value| map, NaN and Inf counted apart.
    void valueStatsAndMagnitude()
    {
        Tensor t(DType::Float32, {2, 3});
        auto v = t.mutableValues<float>();
        const float values[] = {1, -3, 0, NAN, INFINITY, 2};
        std::copy(std::begin(values), std::end(values), v.begin());
        const ValueStats stats = valueStats(t);
        QCOMPARE(stats.count, std::int64_t(6));
        QCOMPARE(stats.nanCount, std::int64_t(1));
        QCOMPARE(stats.infCount, std::int64_t(1));
        QCOMPARE(stats.zeroCount, std::int64_t(1));
        QCOMPARE(stats.min, -3.0);
        QCOMPARE(stats.max, 2.0);
        QCOMPARE(stats.mean, 0.0);
        QVERIFY(std::abs(stats.stddev - std::sqrt(14.0 / 4)) < 1e-12);
        const ErrorMap map = computeMagnitudeMap(t, SliceSpec{}, 512, 512);
        QVERIFY(map.error.empty());
        QCOMPARE(map.cell(0, 1), 3.0f);
        QVERIFY(std::isinf(map.cell(1, 0)) && std::isinf(map.cell(1, 1)));
        QCOMPARE(valueStats(Tensor()).count, std::int64_t(0));
        QCOMPARE(valueStats(Tensor(DType::Float16, {0})).mean, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
