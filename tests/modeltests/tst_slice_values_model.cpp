#include "slice_values_model.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <limits>

using namespace ptowb;

namespace {

// A float32 tensor whose element k is k + 0.5.
Tensor counting(std::vector<std::int64_t> shape)
{
    Tensor t(DType::Float32, std::move(shape));
    for (std::int64_t k = 0; k < t.numel(); ++k)
        t.set(k, double(k) + 0.5);
    return t;
}

SliceSpec slice(int rowAxis, int colAxis, std::vector<std::int64_t> fixed = {})
{
    SliceSpec s;
    s.rowAxis = rowAxis;
    s.colAxis = colAxis;
    s.fixed = std::move(fixed);
    return s;
}

QString shown(const SliceValuesModel& model, int row, int column)
{
    return model.index(row, column).data().toString();
}

bool tinted(const SliceValuesModel& model, int row, int column)
{
    return model.index(row, column).data(Qt::BackgroundRole).isValid();
}

} // namespace

class TestSliceValuesModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheSliceAndTintsWhatDiffers()
    {
        SliceValuesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Tensor expected = counting({2, 3});
        Tensor actual = counting({2, 3});
        actual.set(4, 100); // row 1, column 1
        model.setData(actual, expected, slice(0, 1));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(shown(model, 0, 2), QStringLiteral("2.5"));
        QCOMPARE(shown(model, 1, 1), QStringLiteral("100"));
        QVERIFY(tinted(model, 1, 1));
        QCOMPARE(model.index(1, 1).data(Qt::BackgroundRole).value<QBrush>().color(),
                 QColor(0xfa, 0xe0, 0xc0));
        QVERIFY(!tinted(model, 0, 0));
        QVERIFY(!tinted(model, 1, 2));
        QVERIFY(!model.index(0, 0).data(Qt::ToolTipRole).isValid());
    }

    void sixSignificantDigitsAndNanEqualsNan()
    {
        SliceValuesModel model;
        Tensor a(DType::Float64, {1, 2});
        a.set(0, 3.14159265);
        a.set(1, std::numeric_limits<double>::quiet_NaN());
        model.setData(a, a, slice(0, 1));
        QCOMPARE(shown(model, 0, 0), QStringLiteral("3.14159"));
        QCOMPARE(shown(model, 0, 1), QStringLiteral("nan"));
        QVERIFY(!tinted(model, 0, 1)); // NaN on both sides is no difference
    }

    void anyTwoAxesOfAnNdTensor()
    {
        SliceValuesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Tensor t = counting({2, 3, 4});
        // Rows over axis 2, columns over axis 0, axis 1 fixed at 1: cell (r, c) is [c, 1, r].
        model.setData(t, t, slice(2, 0, {0, 1, 0}));
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 2);
        QCOMPARE(shown(model, 3, 1), QString::number(1 * 12 + 1 * 4 + 3 + 0.5));
        QCOMPARE(shown(model, 0, 0), QString::number(4 + 0.5));
    }

    void vectorsAndScalarsMakeOneRow()
    {
        SliceValuesModel model;
        const Tensor vector = counting({5});
        model.setData(vector, vector, slice(0, 1));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 5);
        QCOMPARE(shown(model, 0, 4), QStringLiteral("4.5"));
        const Tensor scalar = counting({});
        model.setData(scalar, scalar, slice(0, 1));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 1);
        QCOMPARE(shown(model, 0, 0), QStringLiteral("0.5"));
    }

    void nothingToShowForMismatchedShapesOrAxes()
    {
        SliceValuesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setData(counting({2, 3}), counting({3, 2}), slice(0, 1));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
        const Tensor t = counting({2, 3});
        model.setData(t, t, slice(1, 1));
        QCOMPARE(model.rowCount(), 0);
        model.setData(t, t, slice(0, 2));
        QCOMPARE(model.rowCount(), 0);
    }

    void headersCountFromZero()
    {
        SliceValuesModel model;
        const Tensor t = counting({2, 3});
        model.setData(t, t, slice(0, 1));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toInt(), 2);
        QCOMPARE(model.headerData(1, Qt::Vertical).toInt(), 1);
        QVERIFY(!model.headerData(0, Qt::Horizontal, Qt::ToolTipRole).isValid());
    }

    void everyChangeResetsTheModel()
    {
        SliceValuesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const Tensor t = counting({2, 3});
        model.setData(t, t, slice(0, 1));
        model.setData(t, t, slice(1, 0));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
        QCOMPARE(reset.count(), 3);
    }
};

QTEST_MAIN(TestSliceValuesModel)
#include "tst_slice_values_model.moc"
