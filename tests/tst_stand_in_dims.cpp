// Output shapes over unknown input dims (onnxmodel/stand_in_dims.h): a copied dim keeps its
// dim_param, arithmetic on one or a size chosen by comparing with one is a fresh unknown dim,
// known sizes stay known, and a rank is lost only when the runs disagree on it.
#include "onnxmodel/stand_in_dims.h"

#include <QTest>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <stdexcept>

namespace {

onnx::TypeProto tensorType(std::initializer_list<const char*> dims)
{
    onnx::TypeProto type;
    auto* shape = type.mutable_tensor_type()->mutable_shape();
    for (const char* d : dims) {
        auto* dim = shape->add_dim();
        if (!d) continue; // unknown, unnamed
        if (std::isdigit(static_cast<unsigned char>(d[0])))
            dim->set_dim_value(std::atoll(d));
        else
            dim->set_dim_param(d);
    }
    return type;
}

using Rule = std::function<std::vector<std::int64_t>(const std::vector<std::int64_t>& x,
                                                     const std::vector<std::int64_t>& w)>;

// "batch,32,?" for the merged shape; "" when it stays unknown.
QString inferred(const onnx::TypeProto& x, const onnx::TypeProto& w, const Rule& rule)
{
    ptowb_dims::StandIns standIns;
    std::vector<std::optional<std::vector<std::int64_t>>> runs;
    for (int run = 0; run < ptowb_dims::kRuns; ++run) {
        const auto xd = standIns.dims(run, x), wd = standIns.dims(run, w);
        try {
            runs.push_back(rule(xd, wd));
        } catch (const std::exception&) {
            runs.push_back(std::nullopt);
        }
    }
    onnx::TensorShapeProto shape;
    if (!standIns.merge(runs, &shape)) return {};
    QStringList dims;
    for (const auto& d : shape.dim())
        dims << (d.has_dim_value()   ? QString::number(d.dim_value())
                 : d.has_dim_param() ? QString::fromStdString(d.dim_param())
                                     : QStringLiteral("?"));
    return dims.join(QLatin1Char(','));
}

} // namespace

class TestStandInDims : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void copiedDimsKeepTheirNames()
    {
        const auto x = tensorType({"batch", "32"}), w = tensorType({"seq", nullptr});
        QCOMPARE(inferred(x, w,
                          [](auto& a, auto& b) {
                              return std::vector<std::int64_t>{a[0], b[0], a[1], b[1]};
                          }),
                 QStringLiteral("batch,seq,32,?"));
    }

    void arithmeticGivesAFreshUnknownDim()
    {
        const auto x = tensorType({"batch", "32"}), w = tensorType({"4"});
        QCOMPARE(inferred(x, w,
                          [](auto& a, auto& b) {
                              return std::vector<std::int64_t>{a[0] * 2, a[1] + b[0], a[0] / a[0]};
                          }),
                 QStringLiteral("?,36,1"));
    }

    void aSizeChosenByComparingWithAnUnknownDimIsUnknown()
    {
        const auto x = tensorType({"batch"}), w = tensorType({"4"});
        QCOMPARE(
            inferred(
                x, w,
                [](auto& a, auto& b) {
                    return std::vector<std::int64_t>{std::min(a[0], b[0]), std::max(a[0], b[0])};
                }),
            QStringLiteral("?,?"));
    }

    void aRankThatDependsOnAnUnknownDimIsLost()
    {
        const auto x = tensorType({"n"}), w = tensorType({"1"});
        QCOMPARE(inferred(x, w,
                          [](auto& a, auto&) {
                              return std::vector<std::int64_t>(std::size_t(a[0] % 3), 1);
                          }),
                 QString());
    }

    void aRunThatFailsLeavesOnlyCopiesAndNoGuesses()
    {
        // The small run breaks the rule: the copy is still certain, the constant is not.
        const auto x = tensorType({"batch", "8"}), w = tensorType({"2"});
        QCOMPARE(inferred(x, w,
                          [](auto& a, auto& b) {
                              if (a[0] < 100) throw std::runtime_error("too small");
                              return std::vector<std::int64_t>{a[0], b[0]};
                          }),
                 QStringLiteral("batch,?"));
    }

    void nothingUnknownIsReportedAsKnown()
    {
        const auto x = tensorType({"2", "3"}), w = tensorType({"5"});
        QCOMPARE(inferred(x, w,
                          [](auto& a, auto& b) {
                              return std::vector<std::int64_t>{a[0] * a[1], b[0]};
                          }),
                 QStringLiteral("6,5"));
        QVERIFY(!ptowb_dims::StandIns::hasUnknownDim(&x));
        const auto named = tensorType({"batch"});
        QVERIFY(ptowb_dims::StandIns::hasUnknownDim(&named));
    }
};

QTEST_GUILESS_MAIN(TestStandInDims)
#include "tst_stand_in_dims.moc"
