// The run panels on their own, without the window: Run and Compare with its model and stamp,
// the Tensor diff's messages and reset, the stamp's stale states.
#include "run_compare_panel.h"
#include "run_stamp_label.h"
#include "slice_values_model.h"
#include "tensor/npy.h"
#include "tensor_diff_panel.h"
#include "verification_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;

namespace {

// Case "ok" passes; "bad" fails its output; "broken" could not run.
VerificationReport threeCases()
{
    VerificationReport report;
    report.op = "pto::demo";
    report.target = "sim";
    for (const char* name : {"ok", "bad"}) {
        CaseVerification c;
        c.caseName = name;
        OutputCheck o;
        o.name = "y";
        o.verdict.pass = std::string(name) == "ok";
        o.verdict.reason = o.verdict.pass ? "" : "3 of 4 elements exceed the tolerance";
        c.outputs.push_back(o);
        report.cases.push_back(c);
    }
    CaseVerification broken;
    broken.caseName = "broken";
    broken.error = "kernel.py:4:5: ValueError: tile plan";
    report.cases.push_back(broken);
    return report;
}

} // namespace

class TestPanels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stampStates()
    {
        RunStampLabel stamp(QStringLiteral("nothing yet"));
        QVERIFY(stamp.text().contains(QStringLiteral("nothing yet")));
        stamp.markStale(QStringLiteral("edited")); // nothing shown: nothing to be stale
        QVERIFY(!stamp.isStale());
        stamp.setRun(QStringLiteral("demo · Verify on sim · 10:00:00"));
        QVERIFY(!stamp.isStale() && stamp.text().contains(QStringLiteral("10:00:00")));
        stamp.markRunning(QStringLiteral("Export is running"));
        QVERIFY(stamp.isStale());
        stamp.runEnded(); // it verified nothing: as before
        QVERIFY(!stamp.isStale());
        stamp.markStale(QStringLiteral("kernel.py was edited after this run"));
        stamp.markRunning(QStringLiteral("Export is running"));
        stamp.runEnded();
        QCOMPARE(stamp.why(), QStringLiteral("kernel.py was edited after this run"));
        stamp.markRunning(QStringLiteral("Verify is running"));
        stamp.setRun(QStringLiteral("demo · Verify on sim · 10:01:00")); // it brought results
        stamp.runEnded();
        QVERIFY(!stamp.isStale());
        stamp.reset();
        QVERIFY(stamp.stamp().isEmpty());
    }

    void runCompareListsEveryCase()
    {
        RunComparePanel panel;
        QAbstractItemModelTester tester(&panel.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.firstFailingRow(), -1);
        panel.showReport(threeCases(), QStringLiteral("demo · Verify on sim · 10:00:00"));
        QCOMPARE(panel.model().rowCount(), 3);
        QCOMPARE(panel.model().failures(), 2);
        QCOMPARE(panel.firstFailingRow(), 1);
        QCOMPARE(panel.model().rowAt(2), (std::pair<int, int>{2, -1})); // the case that did not run
        QCOMPARE(panel.model().index(2, VerificationModel::VerdictColumn).data().toString(),
                 QStringLiteral("ERROR"));
        QSignalSpy chosen(&panel, &RunComparePanel::rowChosen);
        panel.table().clicked(panel.model().index(1, 0));
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.first().at(0).toInt(), 1);
        panel.markStale(QStringLiteral("op.json was edited after this run"));
        QVERIFY(panel.stamp().isStale());
        panel.reset();
        QCOMPARE(panel.model().rowCount(), 0);
        QVERIFY(panel.stamp().stamp().isEmpty());
    }

    // A difference, then a message instead of it, then nothing; a missing file is said.
    void diffShowsOnlyWhatItIsGiven()
    {
        QTemporaryDir dir;
        Tensor expected(DType::Float32, {2, 3}), actual(DType::Float32, {2, 3});
        for (int k = 0; k < 6; ++k) {
            expected.set(k, k);
            actual.set(k, k == 4 ? 9.0 : k);
        }
        const std::string e = dir.filePath(QStringLiteral("e.npy")).toStdString(),
                          a = dir.filePath(QStringLiteral("a.npy")).toStdString();
        QVERIFY(writeNpy(e, expected).empty() && writeNpy(a, actual).empty());
        TensorDiffPanel diff;
        QSignalSpy shown(&diff, &TensorDiffPanel::outputShown);
        diff.showOutput(QStringLiteral("bad / y"), QString::fromStdString(a),
                        QString::fromStdString(e), {}, QStringLiteral("run 1"));
        QVERIFY(shown.wait(5000));
        QVERIFY(diff.hasData());
        QCOMPARE(diff.stamp().stamp(), QStringLiteral("run 1"));
        QCOMPARE(diff.expectedValues().rowCount(), 2);
        diff.showMessage(QStringLiteral("broken: error"), QStringLiteral("tile plan"),
                         QStringLiteral("run 1"));
        QVERIFY(!diff.hasData());
        QCOMPARE(diff.expectedValues().rowCount(), 0);
        QVERIFY(diff.titleText().contains(QStringLiteral("tile plan")));
        diff.showOutput(QStringLiteral("gone / y"), dir.filePath(QStringLiteral("missing.npy")),
                        QString::fromStdString(e), {}, QStringLiteral("run 2"));
        QVERIFY(shown.wait(5000));
        QVERIFY(!shown.last().at(0).toString().isEmpty());
        QVERIFY(!diff.hasData());
        diff.reset();
        QVERIFY(diff.stamp().stamp().isEmpty());
        QCOMPARE(diff.titleText(), QStringLiteral("No output selected"));
    }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
