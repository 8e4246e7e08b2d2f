#include "verification_model.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QTest>

using namespace ptowb;

namespace {

OutputCheck output(std::string name, bool pass, double maxAbs)
{
    OutputCheck check;
    check.name = std::move(name);
    check.comparison.metrics.maxAbsError = maxAbs;
    check.comparison.metrics.maxRelError = maxAbs / 2;
    check.comparison.metrics.cosine = pass ? 1.0 : 0.5;
    check.comparison.metrics.mismatchRatio = pass ? 0 : 0.25;
    check.verdict.pass = pass;
    check.verdict.reason = pass ? "within tolerance" : "25% of elements outside";
    check.verdict.rule = "allclose";
    return check;
}

// Case "small": one output passes, one fails; case "crashed" did not run; case "reshaped" ran
// but its output has another shape than the reference's.
VerificationReport report()
{
    VerificationReport report;
    CaseVerification small;
    small.caseName = "small";
    small.outputs = {output("y", true, 1.23456e-4), output("z", false, 0.5)};
    CaseVerification crashed;
    crashed.caseName = "crashed";
    crashed.error = "the backend exited with 3";
    CaseVerification reshaped;
    reshaped.caseName = "reshaped";
    reshaped.outputs = {output("y", false, 0)};
    reshaped.outputs[0].comparison.shapesMatch = false;
    report.cases = {small, crashed, reshaped};
    return report;
}

QString text(const VerificationModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

} // namespace

class TestVerificationModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneRowPerOutputAndPerCaseThatFailedToRun()
    {
        VerificationModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(report());
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(VerificationModel::ColumnCount));
        QCOMPARE(model.rowAt(0), std::make_pair(0, 0));
        QCOMPARE(model.rowAt(1), std::make_pair(0, 1));
        QCOMPARE(model.rowAt(2), std::make_pair(1, -1));
        QCOMPARE(model.rowAt(3), std::make_pair(2, 0));
        QCOMPARE(model.failures(), 3);
        QCOMPARE(model.report().cases.size(), std::size_t(3));
    }

    void verdictsAndMetrics()
    {
        VerificationModel model;
        model.setReport(report());
        QCOMPARE(text(model, 0, VerificationModel::CaseColumn), QStringLiteral("small"));
        QCOMPARE(text(model, 0, VerificationModel::OutputColumn), QStringLiteral("y"));
        QCOMPARE(text(model, 0, VerificationModel::VerdictColumn), QStringLiteral("PASS"));
        QCOMPARE(text(model, 1, VerificationModel::VerdictColumn), QStringLiteral("FAIL"));
        QCOMPARE(text(model, 2, VerificationModel::VerdictColumn), QStringLiteral("ERROR"));
        QCOMPARE(text(model, 2, VerificationModel::OutputColumn), QStringLiteral("—"));
        // Four significant digits.
        QCOMPARE(text(model, 0, VerificationModel::MaxAbsColumn), QStringLiteral("0.0001235"));
        QCOMPARE(text(model, 1, VerificationModel::MaxRelColumn), QStringLiteral("0.25"));
        QCOMPARE(text(model, 1, VerificationModel::CosineColumn), QStringLiteral("0.5"));
        QCOMPARE(text(model, 1, VerificationModel::MismatchColumn), QStringLiteral("0.25"));
        QCOMPARE(text(model, 1, VerificationModel::ReasonColumn),
                 QStringLiteral("25% of elements outside [allclose]"));
        QCOMPARE(text(model, 2, VerificationModel::ReasonColumn),
                 QStringLiteral("the backend exited with 3"));
        // No metrics where nothing was compared, or shapes differ.
        for (int row : {2, 3})
            for (int column = VerificationModel::MaxAbsColumn;
                 column <= VerificationModel::MismatchColumn; ++column)
                QVERIFY(!model.index(row, column).data().isValid());
        // The tooltip repeats the cell, for the long reasons.
        QCOMPARE(text(model, 1, VerificationModel::ReasonColumn, Qt::ToolTipRole),
                 text(model, 1, VerificationModel::ReasonColumn));
    }

    void rolesColourAndAlign()
    {
        VerificationModel model;
        model.setReport(report());
        QVERIFY(model.index(0, 0).data(VerificationModel::PassRole).toBool());
        QVERIFY(!model.index(1, 0).data(VerificationModel::PassRole).toBool());
        QVERIFY(!model.index(2, 0).data(VerificationModel::PassRole).toBool());
        const auto background = [&](int row) {
            return model.index(row, VerificationModel::VerdictColumn)
                .data(Qt::BackgroundRole)
                .value<QBrush>()
                .color();
        };
        QCOMPARE(background(0), QColor(0xc8, 0xf0, 0xc8));
        QCOMPARE(background(1), QColor(0xf8, 0xc8, 0xc8));
        QCOMPARE(background(2), QColor(0xf8, 0xc8, 0xc8));
        QVERIFY(!model.index(0, VerificationModel::CaseColumn).data(Qt::BackgroundRole).isValid());
        QCOMPARE(
            model.index(0, VerificationModel::CosineColumn).data(Qt::TextAlignmentRole).toInt(),
            int(Qt::AlignRight | Qt::AlignVCenter));
        QVERIFY(
            !model.index(0, VerificationModel::CaseColumn).data(Qt::TextAlignmentRole).isValid());
    }

    // A target without values (pypto-sim) measured its cases: COST with its cycles, neither a
    // pass nor a failure; one that could not run stays an ERROR.
    void measuredCasesAreNeitherPassNorFail()
    {
        VerificationReport measured;
        measured.target = "pypto-sim";
        CaseVerification ran;
        ran.caseName = "rows8";
        ran.costOnly = true;
        ran.cost = {{"source", "pypto 0.2.0"}, {"total_cycles", 58002}};
        CaseVerification rejected = ran;
        rejected.caseName = "wide";
        rejected.error = "PyPTO 0.2.0: no pypto.tanh";
        measured.cases = {ran, rejected};
        VerificationModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(measured);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(text(model, 0, VerificationModel::VerdictColumn), QStringLiteral("COST"));
        QCOMPARE(text(model, 0, VerificationModel::ReasonColumn),
                 QStringLiteral("58002 cycles (pypto 0.2.0); pypto-sim produces no values, nothing "
                                "compared"));
        QVERIFY(model.index(0, 0).data(VerificationModel::PassRole).toBool());
        QCOMPARE(text(model, 1, VerificationModel::VerdictColumn), QStringLiteral("ERROR"));
        QCOMPARE(model.failures(), 1);
    }

    void headersAndTheirTooltips()
    {
        VerificationModel model;
        QCOMPARE(model.headerData(VerificationModel::VerdictColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Verdict"));
        QCOMPARE(model.headerData(VerificationModel::MaxAbsColumn, Qt::Horizontal, Qt::ToolTipRole)
                     .toString(),
                 QStringLiteral("Largest |actual - expected|"));
        QVERIFY(!model.headerData(VerificationModel::ColumnCount, Qt::Horizontal).isValid());
        QVERIFY(!model.headerData(0, Qt::Vertical).isValid());
    }

    void eachReportResetsTheModel()
    {
        VerificationModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setReport(report());
        QCOMPARE(model.rowCount(), 4);
        VerificationReport passing;
        CaseVerification one;
        one.caseName = "one";
        one.outputs = {output("y", true, 0)};
        passing.cases = {one};
        model.setReport(passing);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.failures(), 0);
        model.setReport({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.count(), 3);
    }
};

QTEST_MAIN(TestVerificationModel)
#include "tst_verification_model.moc"
