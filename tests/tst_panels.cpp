// The panels on their own, without the window: Run and Compare with its model and stamp, the
// Tensor diff's messages, reset and heatmap modes, the stamp's stale states, Cost/trace with its
// model, and the Generated glue dock over two generations.
#include "code_editor.h"
#include "cost/cost_model.h"
#include "cost_trace_panel.h"
#include "generated_glue_panel.h"
#include "line_cost_model.h"
#include "run_compare_panel.h"
#include "run_stamp_label.h"
#include "slice_values_model.h"
#include "tensor/npy.h"
#include "tensor_diff_panel.h"
#include "tensor_heatmap.h"
#include "verification_model.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>
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

bool writeFile(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

QCheckBox* checkBox(const QWidget& widget, const QString& text)
{
    for (QCheckBox* box : widget.findChildren<QCheckBox*>())
        if (box->text() == text) return box;
    return nullptr;
}

QStringList labelTexts(const QWidget& widget)
{
    QStringList texts;
    for (const QLabel* label : widget.findChildren<QLabel*>())
        texts << label->text();
    return texts;
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
        // The edit before that Verify belongs to older results: an Export now ends current.
        stamp.markRunning(QStringLiteral("Export is running"));
        stamp.runEnded();
        QVERIFY2(!stamp.isStale(), qPrintable(stamp.why()));
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
        // A result the case's test did not check: a SKIP row, neither a failure nor compared.
        VerificationReport skipping = threeCases();
        skipping.cases[0].unchecked = {"scratch"};
        panel.showReport(skipping, QStringLiteral("demo · Verify on sim · 10:01:00"));
        QCOMPARE(panel.model().rowCount(), 4);
        QCOMPARE(panel.model().compared(), 3);
        QCOMPARE(panel.model().failures(), 2);
        const int skipRow = 1; // after case 0's own output
        QCOMPARE(panel.model().uncheckedAt(skipRow), std::string("scratch"));
        QCOMPARE(panel.model().uncheckedAt(0), std::string());
        QCOMPARE(panel.model().index(skipRow, VerificationModel::VerdictColumn).data().toString(),
                 QStringLiteral("SKIP"));
        QCOMPARE(panel.model().index(skipRow, VerificationModel::OutputColumn).data().toString(),
                 QStringLiteral("scratch"));
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
        QVERIFY(shown.wait(30000));
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
        QVERIFY(shown.wait(30000));
        QVERIFY(!shown.last().at(0).toString().isEmpty());
        QVERIFY(!diff.hasData());
        diff.reset();
        QVERIFY(diff.stamp().stamp().isEmpty());
        QCOMPARE(diff.titleText(), QStringLiteral("No output selected"));
    }

    // Absolute or relative error, linear or log colours: errors of 1, 0.5, 0.001 and 0 over
    // expected values 100, 1, 1 and 1 (relative: 0.01, 0.5, 0.001, 0).
    void heatmapModes()
    {
        QTemporaryDir dir;
        Tensor expected(DType::Float32, {1, 4}), actual(DType::Float32, {1, 4});
        const double values[] = {100, 1, 1, 1}, errors[] = {1, 0.5, 1e-3, 0};
        for (int k = 0; k < 4; ++k) {
            expected.set(k, values[k]);
            actual.set(k, values[k] + errors[k]);
        }
        const std::string e = dir.filePath(QStringLiteral("e.npy")).toStdString(),
                          a = dir.filePath(QStringLiteral("a.npy")).toStdString();
        QVERIFY(writeNpy(e, expected).empty() && writeNpy(a, actual).empty());
        TensorDiffPanel diff;
        QSignalSpy shown(&diff, &TensorDiffPanel::outputShown);
        diff.showOutput(QStringLiteral("bad / y"), QString::fromStdString(a),
                        QString::fromStdString(e), {}, QStringLiteral("run 1"));
        QVERIFY(shown.wait(30000));
        QCheckBox* relative = checkBox(diff, QStringLiteral("Relative"));
        QCheckBox* log = checkBox(diff, QStringLiteral("Log scale"));
        QVERIFY(relative && log && !relative->isChecked() && !log->isChecked());
        const ErrorMap& map = diff.heatmap().map();
        QCOMPARE(map.maxError, 1.0);
        QCOMPARE(map.worstIndex, (std::vector<std::int64_t>{0, 0}));
        relative->setChecked(true);
        QCOMPARE(diff.heatmap().map().maxError, 0.5);
        QCOMPARE(diff.heatmap().map().worstIndex, (std::vector<std::int64_t>{0, 1}));
        QVERIFY(std::abs(diff.heatmap().map().cell(0, 0) - 0.01) < 1e-6);
        relative->setChecked(false);
        QCOMPARE(diff.heatmap().map().maxError, 1.0);

        // One pixel per cell. Linear: 0.001 of the largest error looks like no error; log (six
        // decades): it sits mid-scale, 0.5 near the top, and the largest is the same top colour.
        auto pixels = [&] {
            const QImage image = diff.heatmap().renderMap(QSize(4, 1));
            return std::vector<QRgb>{image.pixel(0, 0), image.pixel(1, 0), image.pixel(2, 0),
                                     image.pixel(3, 0)};
        };
        const std::vector<QRgb> linear = pixels();
        QCOMPARE(linear[2], linear[3]);
        QVERIFY(linear[1] != linear[0] && linear[1] != linear[3]);
        log->setChecked(true);
        QVERIFY(diff.heatmap().logScale());
        const std::vector<QRgb> logarithmic = pixels();
        QCOMPARE(logarithmic[0], linear[0]);
        QCOMPARE(logarithmic[3], linear[3]);
        QVERIFY(logarithmic[2] != logarithmic[3] && logarithmic[2] != logarithmic[0]);
        QVERIFY(logarithmic[1] != linear[1]); // 0.5 moves up the scale
        log->setChecked(false);
        QVERIFY(!diff.heatmap().logScale());
        QCOMPARE(pixels(), linear);
    }

    // A trace read back into the per-line table, most expensive line first; a row's click names
    // its line; what is not a trace, or no file, clears it and says why.
    void costTraceListsLinesOfTheRun()
    {
        QTemporaryDir dir;
        cost::CostReport report;
        report.platform = "demo_npu";
        report.events = {{2, "pypto.exp [1, 64] float16", cost::UnitKind::Vector, 0, 3},
                         {4, "pypto.matmul [64, 64] float16", cost::UnitKind::Cube, 3, 10},
                         {2, "pypto.exp [1, 64] float16", cost::UnitKind::Vector, 13, 3}};
        report.totalUs = 16;
        const QString trace = dir.filePath(QStringLiteral("trace.json"));
        QVERIFY(writeFile(trace, QByteArray::fromStdString(report.traceJson("demo"))));
        const QStringList kernel = {QStringLiteral("def demo(x):"),
                                    QStringLiteral("    y = pypto.exp(x)"), QString(),
                                    QStringLiteral("    z = pypto.matmul(y, y)")};

        CostTracePanel panel;
        QAbstractItemModelTester tester(&panel.costs(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy shown(&panel, &CostTracePanel::runShown);
        panel.showRun(trace, {}, kernel, QStringLiteral("demo · Verify on sim · 12:00:00"));
        QVERIFY(shown.wait(30000));
        LineCostModel& costs = panel.costs();
        QCOMPARE(costs.rowCount(), 2);
        QCOMPARE(costs.index(0, LineCostModel::LineColumn).data().toInt(), 4); // 10 µs before 6 µs
        QCOMPARE(costs.index(1, LineCostModel::LineColumn).data().toInt(), 2);
        QCOMPARE(costs.index(1, LineCostModel::OpsColumn).data().toInt(), 2);
        QVERIFY(costs.index(0, LineCostModel::StatementColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("matmul")));
        QCOMPARE(panel.stamp().stamp(), QStringLiteral("demo · Verify on sim · 12:00:00"));
        QVERIFY(labelTexts(panel).join(' ').contains(QStringLiteral("demo_npu")));

        QSignalSpy activated(&panel, &CostTracePanel::lineActivated);
        Q_EMIT panel.costTable().clicked(costs.index(1, LineCostModel::TotalColumn));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toInt(), 2);

        panel.markStale(QStringLiteral("kernel.py was edited after this run"));
        QVERIFY(panel.stamp().isStale());

        QVERIFY(writeFile(trace, "{\"not\": \"a trace\"}"));
        panel.showRun(trace, {}, kernel, QStringLiteral("demo · Verify on sim · 12:01:00"));
        QVERIFY(shown.wait(30000));
        QCOMPARE(costs.rowCount(), 0);
        QVERIFY(panel.stamp().stamp().isEmpty());
        QVERIFY(
            labelTexts(panel).join(' ').contains(QStringLiteral("Verify against the simulator")));

        const QString missing = dir.filePath(QStringLiteral("missing.json"));
        panel.showRun(missing, {}, kernel, QStringLiteral("demo · Verify on sim · 12:02:00"));
        QVERIFY(shown.wait(30000));
        QCOMPARE(costs.rowCount(), 0);
        QVERIFY2(labelTexts(panel).join(' ').contains(QStringLiteral("missing.json")),
                 qPrintable(labelTexts(panel).join(QStringLiteral(" | "))));

        panel.showRun({}, {}, kernel, {}); // no project: nothing, and no stamp at once
        QVERIFY(panel.stamp().stamp().isEmpty());
        QVERIFY(shown.wait(30000));
        QCOMPARE(costs.rowCount(), 0);
    }

    // Two generations on disk: each file's change, the file and its diff, a removed file's last
    // text; a new generation opens the diff; a folder with nothing says so.
    void generatedGlueShowsWhatTheLastGenerationChanged()
    {
        QTemporaryDir dir;
        const QString glue = dir.filePath(QStringLiteral("glue"));
        const QString previous = glue + QStringLiteral(".previous");
        QVERIFY(writeFile(glue + "/torch/op.py", "x = 1\ny = 2\n"));
        QVERIFY(writeFile(glue + "/cann/op.h", "// new\n"));
        QVERIFY(writeFile(glue + "/same.txt", "same\n"));
        QVERIFY(writeFile(previous + "/torch/op.py", "x = 1\ny = 3\n"));
        QVERIFY(writeFile(previous + "/old.txt", "gone\n"));
        QVERIFY(writeFile(previous + "/same.txt", "same\n"));

        GeneratedGluePanel panel;
        panel.reload(glue.toStdString());
        std::map<std::string, GlueFileChange::Status> status;
        for (const GlueFileChange& change : panel.changes())
            status[change.path] = change.status;
        using Status = GlueFileChange::Status;
        const std::map<std::string, Status> expected = {{"torch/op.py", Status::Changed},
                                                        {"cann/op.h", Status::Added},
                                                        {"old.txt", Status::Removed},
                                                        {"same.txt", Status::Unchanged}};
        QVERIFY(status == expected);
        QCOMPARE(panel.fileList().topLevelItemCount(), 4);
        const auto item = [&panel](const QString& path) -> const QTreeWidgetItem* {
            for (int row = 0; row < panel.fileList().topLevelItemCount(); ++row)
                if (panel.fileList().topLevelItem(row)->text(0) == path)
                    return panel.fileList().topLevelItem(row);
            return nullptr;
        };
        for (const char* path : {"torch/op.py", "cann/op.h", "old.txt", "same.txt"})
            QVERIFY2(item(QString::fromLatin1(path)), path);
        QCOMPARE(item(QStringLiteral("torch/op.py"))->text(1), QStringLiteral("+1 −1"));
        QCOMPARE(item(QStringLiteral("cann/op.h"))->text(1), QStringLiteral("new"));
        QCOMPARE(item(QStringLiteral("old.txt"))->text(1), QStringLiteral("removed"));
        QVERIFY(item(QStringLiteral("same.txt"))->text(1).isEmpty());
        QVERIFY(
            labelTexts(panel).join(' ').contains(QStringLiteral("1 changed, 1 new, 1 removed")));

        QVERIFY(panel.showFile(QStringLiteral("torch/op.py")));
        QCOMPARE(panel.fileView().text(), QStringLiteral("x = 1\ny = 2\n"));
        QVERIFY(panel.diffView().text().contains(QStringLiteral("-y = 3")));
        QVERIFY(panel.diffView().text().contains(QStringLiteral("+y = 2")));
        QVERIFY(panel.showFile(QStringLiteral("old.txt")));
        QCOMPARE(panel.fileView().text(), QStringLiteral("gone\n"));
        QVERIFY(panel.showFile(QStringLiteral("same.txt")));
        QVERIFY(panel.diffView().text().contains(QStringLiteral("No change")));
        QVERIFY(!panel.showFile(QStringLiteral("nope.txt")));

        // A generation after the one shown: the dock turns to what it changed.
        auto* tabs = panel.findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentWidget(&panel.fileView());
        QVERIFY(writeFile(glue + "/torch/op.py", "x = 1\ny = 4\n"));
        panel.reload(glue.toStdString());
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(&panel.diffView()));

        panel.reload(dir.filePath(QStringLiteral("nothing")).toStdString());
        QVERIFY(panel.changes().empty());
        QCOMPARE(panel.fileList().topLevelItemCount(), 0);
        QVERIFY(panel.fileView().text().isEmpty());
        QVERIFY(labelTexts(panel).join(' ').contains(QStringLiteral("Nothing generated yet")));
    }
};

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
