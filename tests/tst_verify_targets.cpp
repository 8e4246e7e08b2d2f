// The toolbar's Verify target: the simulator, the real PyPTO (pypto-sim, npu) in the chosen
// interpreter and the project's runners, each greyed with why where it cannot run. Verify on
// pypto-sim lists each case as measured (COST, nothing compared) and shows PyPTO's cycles beside
// our newest estimate in Cost/trace, per kernel line too; Export still verifies on the simulator.
#include "app_test_support.h"
#include "cost_comparison_view.h"
#include "cost_trace_panel.h"
#include "line_cost_model.h"
#include "main_window.h"
#include "run_compare_panel.h"
#include "run_controller.h"
#include "trusted_folders.h"
#include "verification_model.h"
#include "verify_target_box.h"
#include "worker_client/worker_client.h"

#include <QAction>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::testing;

namespace {

bool hasPypto(const QString& python)
{
    QProcess p;
    p.start(python, {QStringLiteral("-c"), QStringLiteral("import pypto")});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

int indexOf(const VerifyTargetBox& box, const QString& name)
{
    return box.findData(name);
}

bool enabled(const VerifyTargetBox& box, const QString& name)
{
    auto* items = qobject_cast<QStandardItemModel*>(box.model());
    return items->item(indexOf(box, name))->isEnabled();
}

bool choose(VerifyTargetBox& box, const QString& name)
{
    const int index = indexOf(box, name);
    if (index < 0) return false;
    box.setCurrentIndex(index);
    Q_EMIT box.activated(index);
    return box.target() == name;
}

bool runAndWait(MainWindow& w, QAction* action)
{
    QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
    action->trigger();
    return finished.wait(600000);
}

// Opens the project and waits for its target list (the interpreter is asked off the GUI thread).
bool open(MainWindow& w, const QString& folder)
{
    QSignalSpy refreshed(&w.verifyTarget(), &VerifyTargetBox::refreshed);
    return w.openProject(folder) && refreshed.wait(60000);
}

// The current tab of the dock tab group that holds `title` (offscreen, a dock behind another's
// tab still reports itself visible).
QString currentTabBeside(const MainWindow& w, const QString& title)
{
    for (const QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == title) return bar->tabText(bar->currentIndex());
    return {};
}

} // namespace

class TestVerifyTargets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptowb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_verify_targets"));
        TrustedFolders::prompt() = [](const QString&, const QString&) { return true; };
    }

    // An interpreter without pypto: the simulator only, PyPTO's targets greyed naming it, and a
    // project's runner listed with the file that defines it.
    void unavailableTargetsSayWhy()
    {
        worker::WorkerClient::choosePython("/usr/bin/python3");
        QTemporaryDir dir;
        const QString project = copySample(dir, "softmax");
        QFile runners(dir.filePath(QStringLiteral("runners.json")));
        QVERIFY(runners.open(QIODevice::WriteOnly));
        runners.write(R"({"name": "board", "command": ["true", "{run_dir}"]})");
        runners.close();
        MainWindow w;
        QVERIFY(open(w, project));
        VerifyTargetBox& box = w.verifyTarget();
        QVERIFY(box.isEnabled());
        QCOMPARE(box.target(), QStringLiteral("sim"));
        QVERIFY(enabled(box, QStringLiteral("sim")));
        for (const char* pypto : {"pypto-sim", "npu"}) {
            const QString name = QLatin1String(pypto);
            QVERIFY(indexOf(box, name) >= 0);
            QVERIFY(!enabled(box, name));
            const QString tip = box.itemData(indexOf(box, name), Qt::ToolTipRole).toString();
            QVERIFY2(tip.contains(QStringLiteral("/usr/bin/python3")) &&
                         tip.contains(QStringLiteral("pip install pypto")),
                     qPrintable(tip));
        }
        QVERIFY(enabled(box, QStringLiteral("board")));
        QVERIFY2(
            box.itemData(indexOf(box, QStringLiteral("board")), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("runners.json")),
            qPrintable(
                box.itemData(indexOf(box, QStringLiteral("board")), Qt::ToolTipRole).toString()));
        // The choice is kept, and a choice the next project does not offer falls back to sim.
        QVERIFY(choose(box, QStringLiteral("board")));
        QVERIFY(w.closeProject());
        QVERIFY(!box.isEnabled());
        QTemporaryDir other;
        QVERIFY(open(w, copySample(other, "softmax")));
        QCOMPARE(box.target(), QStringLiteral("sim"));
    }

    void verifyOnPyptoSim()
    {
        const QString python = QStringLiteral(PTOWB_PYPTO_PYTHON);
        if (!hasPypto(python)) QSKIP("no venv with PyPI's pypto (tests/tools/pypto_venv.sh)");
        worker::WorkerClient::choosePython(python.toStdString());
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(open(w, copySample(dir, "softmax")));
        VerifyTargetBox& box = w.verifyTarget();
        QVERIFY(enabled(box, QStringLiteral("pypto-sim")));
        QVERIFY(!enabled(box, QStringLiteral("npu"))); // no torch_npu here

        // Our estimate first (the simulator), then PyPTO's.
        QVERIFY(choose(box, QStringLiteral("sim")));
        QVERIFY(runAndWait(w, w.runs().verifyAction()));
        QVERIFY(choose(box, QStringLiteral("pypto-sim")));
        QVERIFY(currentTabBeside(w, QStringLiteral("Cost/trace")) != QStringLiteral("Cost/trace"));
        QVERIFY(runAndWait(w, w.runs().verifyAction()));
        QVERIFY2(w.statusText().contains(QStringLiteral("nothing compared")),
                 qPrintable(w.statusText()));
        const VerificationModel& rows = w.comparePanel().model();
        QCOMPARE(rows.rowCount(), 2); // one per case: rows8, rows32_fp16
        for (int r = 0; r < rows.rowCount(); ++r) {
            QCOMPARE(rows.index(r, VerificationModel::VerdictColumn).data().toString(),
                     QStringLiteral("COST"));
            const QString reason = rows.index(r, VerificationModel::ReasonColumn).data().toString();
            QVERIFY2(reason.contains(QStringLiteral("cycles (pypto ")), qPrintable(reason));
        }
        QCOMPARE(rows.failures(), 0);
        QVERIFY(w.costPanel().isVisible()); // its news is in Cost/trace, raised over the diff
        QCOMPARE(currentTabBeside(w, QStringLiteral("Cost/trace")), QStringLiteral("Cost/trace"));

        // Cost/trace: PyPTO beside the newest simulator run of the case, per line too.
        // (The simulator run's panel may still be loading: wait for PyPTO's figures.)
        QTRY_VERIFY_WITH_TIMEOUT(
            w.costPanel().comparison().text().contains(QStringLiteral("our estimate")), 30000);
        const QString text = w.costPanel().comparison().text();
        QVERIFY2(text.contains(QStringLiteral("Case rows8")) &&
                     text.contains(QStringLiteral("PyPTO's CostModel")),
                 qPrintable(text));
        QVERIFY(!w.costPanel().costTable().isColumnHidden(LineCostModel::PyptoColumn));
        bool lineWithPypto = false;
        for (int r = 0; r < w.costPanel().costs().rowCount(); ++r)
            lineWithPypto = lineWithPypto || !w.costPanel()
                                                  .costs()
                                                  .index(r, LineCostModel::PyptoColumn)
                                                  .data()
                                                  .toString()
                                                  .isEmpty();
        QVERIFY(lineWithPypto);

        // Export does not take a measurement for a verification: it verifies on the simulator.
        QVERIFY(runAndWait(w, w.runs().exportAction()));
        QVERIFY2(!w.statusText().contains(QStringLiteral("nothing compared")),
                 qPrintable(w.statusText()));
        QVERIFY2(w.statusText().contains(QStringLiteral("Export succeeded")),
                 qPrintable(w.statusText()));
    }
};

QTEST_MAIN(TestVerifyTargets)
#include "tst_verify_targets.moc"
