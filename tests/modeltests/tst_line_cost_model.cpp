#include "line_cost_model.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTest>

using namespace ptowb;

namespace {

cost::CostEvent event(int line, std::string what, cost::UnitKind unit, double us)
{
    cost::CostEvent e;
    e.line = line;
    e.what = std::move(what);
    e.unit = unit;
    e.durationUs = us;
    return e;
}

// Line 2 ran twice (3 µs of vector, 1 µs of memory), line 4 once (10 µs of cube), and line 9,
// past the kernel's last line, five times past the trace's limit (2 µs of vector).
cost::CostReport report()
{
    cost::CostReport report;
    report.events = {event(2, "pypto.exp [1, 64] float16", cost::UnitKind::Vector, 3),
                     event(4, "pypto.matmul [64, 64]", cost::UnitKind::Cube, 10),
                     event(2, "pypto.copy_out [1, 64]", cost::UnitKind::Memory, 1)};
    cost::LineCost dropped;
    dropped.line = 9;
    dropped.executions = 5;
    dropped.unitUs[int(cost::UnitKind::Vector)] = 2;
    dropped.totalUs = 2;
    dropped.firstOp = "pypto.add [1, 64] float16";
    report.droppedLines[9] = dropped;
    return report;
}

const QStringList kKernel = {"def kernel(a, b):", "    x = pypto.exp(a)  ", "",
                             "    y = pypto.matmul(x, b)"};

QVariant cell(const LineCostModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role);
}

} // namespace

class TestLineCostModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linesMostExpensiveFirst()
    {
        LineCostModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(report(), kKernel);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(LineCostModel::ColumnCount));
        QCOMPARE(cell(model, 0, LineCostModel::LineColumn).toInt(), 4);
        QCOMPARE(cell(model, 1, LineCostModel::LineColumn).toInt(), 2);
        QCOMPARE(cell(model, 2, LineCostModel::LineColumn).toInt(), 9);
        QCOMPARE(model.totalUs(), 16.0);
        QCOMPARE(model.report().events.size(), std::size_t(3));
    }

    void statementsCountsAndUnits()
    {
        LineCostModel model;
        model.setReport(report(), kKernel);
        QCOMPARE(cell(model, 0, LineCostModel::StatementColumn).toString(),
                 QStringLiteral("y = pypto.matmul(x, b)"));
        QCOMPARE(cell(model, 1, LineCostModel::StatementColumn).toString(),
                 QStringLiteral("x = pypto.exp(a)"));
        // A line the kernel does not have shows what it did.
        QCOMPARE(cell(model, 2, LineCostModel::StatementColumn).toString(),
                 QStringLiteral("pypto.add [1, 64] float16"));
        QCOMPARE(cell(model, 1, LineCostModel::OpsColumn).toInt(), 2);
        QCOMPARE(cell(model, 2, LineCostModel::OpsColumn).toInt(), 5);
        QCOMPARE(cell(model, 1, LineCostModel::VectorColumn).toString(), QStringLiteral("3.00 µs"));
        QCOMPARE(cell(model, 1, LineCostModel::MemoryColumn).toString(), QStringLiteral("1.00 µs"));
        QCOMPARE(cell(model, 1, LineCostModel::CubeColumn).toString(), QString());
        QCOMPARE(cell(model, 0, LineCostModel::TotalColumn).toString(), QStringLiteral("10.0 µs"));
        QCOMPARE(cell(model, 0, LineCostModel::ShareColumn).toString(), QStringLiteral("62.5%"));
        QCOMPARE(cell(model, 2, LineCostModel::ShareColumn).toString(), QStringLiteral("12.5%"));
        QCOMPARE(cell(model, 1, LineCostModel::LineColumn, Qt::ToolTipRole).toString(),
                 QStringLiteral("pypto.exp [1, 64] float16"));
    }

    void rolesShareAndTint()
    {
        LineCostModel model;
        model.setReport(report(), kKernel);
        QCOMPARE(cell(model, 0, 0, LineCostModel::LineRole).toInt(), 4);
        QCOMPARE(cell(model, 0, 0, LineCostModel::ShareRole).toDouble(), 0.625);
        QCOMPARE(cell(model, 1, 0, LineCostModel::ShareRole).toDouble(), 0.25);
        // The share column is tinted more the larger the share, saturated from 2/3 on.
        const auto tint = [&](int row) {
            return cell(model, row, LineCostModel::ShareColumn, Qt::BackgroundRole).value<QColor>();
        };
        QCOMPARE(tint(0).hsvSaturationF(), 0.9375f);
        QVERIFY(tint(1).hsvSaturationF() < tint(0).hsvSaturationF());
        QVERIFY(!cell(model, 0, LineCostModel::TotalColumn, Qt::BackgroundRole).isValid());
        QCOMPARE(cell(model, 0, LineCostModel::TotalColumn, Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
        QVERIFY(!cell(model, 0, LineCostModel::StatementColumn, Qt::TextAlignmentRole).isValid());
    }

    void headers()
    {
        LineCostModel model;
        QCOMPARE(model.headerData(LineCostModel::ShareColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Share"));
        QVERIFY(!model.headerData(LineCostModel::OpsColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        QVERIFY(!model.headerData(LineCostModel::ColumnCount, Qt::Horizontal).isValid());
        QVERIFY(!model.headerData(0, Qt::Vertical).isValid());
    }

    // PyPTO's busy cycles beside our estimate: blank without a pypto-sim run, and for a line
    // PyPTO booked nothing to; a change of them is a change of that column only.
    void pyptoCyclesBesideTheEstimate()
    {
        LineCostModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(report(), kKernel);
        QVERIFY(cell(model, 0, LineCostModel::PyptoColumn).isNull());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setPyptoCycles({{4, 3000}, {2, 1000}, {7, 0}});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().column(), int(LineCostModel::PyptoColumn));
        QCOMPARE(changed.first().at(1).toModelIndex().column(), int(LineCostModel::PyptoColumn));
        // Rows stay most expensive first by our estimate: line 4, 2, 9.
        QCOMPARE(cell(model, 0, LineCostModel::PyptoColumn).toString(),
                 QStringLiteral("%1 (75.0%)").arg(QLocale().toString(3000)));
        QCOMPARE(cell(model, 1, LineCostModel::PyptoColumn).toString(),
                 QStringLiteral("%1 (25.0%)").arg(QLocale().toString(1000)));
        QVERIFY(cell(model, 2, LineCostModel::PyptoColumn).isNull());
        QVERIFY(!model.headerData(LineCostModel::PyptoColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());
        model.setPyptoCycles({});
        QVERIFY(cell(model, 0, LineCostModel::PyptoColumn).isNull());
    }

    void formatsMicroseconds()
    {
        QCOMPARE(formatMicroseconds(12.34), QStringLiteral("12.3 µs"));
        QCOMPARE(formatMicroseconds(0.85), QStringLiteral("850 ns"));
        QCOMPARE(formatMicroseconds(1500), QStringLiteral("1.50 ms"));
    }

    void eachReportResetsTheModel()
    {
        LineCostModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setReport(report(), kKernel);
        model.setReport({}, {});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.totalUs(), 0.0);
        QCOMPARE(reset.count(), 2);
    }
};

QTEST_MAIN(TestLineCostModel)
#include "tst_line_cost_model.moc"
