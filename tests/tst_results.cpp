// Results belong to what the window shows: every run panel names the run it came from and says
// when it is stale (an edit, a new run), forgets it on a project switch or close, and never
// shows an old difference for a passing run or a case that could not run; files another
// program changes are reloaded (or kept, when the author says so); the Log reports each step
// in order; commands without a project say so.
#include "app_test_support.h"
#include "code_editor.h"
#include "cost_trace_panel.h"
#include "histogram_view.h"
#include "main_window.h"
#include "new_operator_wizard.h"
#include "problems_model.h"
#include "run_compare_panel.h"
#include "run_controller.h"
#include "run_stamp_label.h"
#include "settings_dialog.h"
#include "tensor/error_map.h"
#include "tensor_diff_panel.h"
#include "tensor_heatmap.h"
#include "trusted_folders.h"
#include "verification_model.h"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::testing;
using Document = EditorSession::Document;

namespace {

// Writes a file the way another editor would: a new file renamed over the old one.
void writeLikeAnotherProgram(const QString& path, const QByteArray& text)
{
    const QString temporary = path + QStringLiteral(".tmp");
    QFile f(temporary);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    QVERIFY(std::rename(temporary.toLocal8Bit().constData(), path.toLocal8Bit().constData()) == 0);
}

bool verify(MainWindow& w)
{
    QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
    w.runs().verifyAction()->trigger();
    return finished.wait(60000);
}

} // namespace

class TestResults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptowb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_results"));
        TrustedFolders::prompt() = [](const QString&, const QString&) { return true; };
    }

    // A failure's diff, then an edit (stale), then a passing run (no old difference), then a
    // case that cannot run (its error, not a difference), then another project (nothing).
    void diffNeverShowsAnotherRun()
    {
        QTemporaryDir dir, other;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        const QString good = kernel->text();
        TensorDiffPanel& diff = w.diffPanel();
        RunComparePanel& compare = w.comparePanel();
        QVERIFY(compare.stamp().stamp().isEmpty());

        kernel->setText(
            QString(good).replace(QStringLiteral("g * scale"), QStringLiteral("g * scale * 2.0")));
        QVERIFY(verify(w));
        QCOMPARE(compare.model().failures(), 2);
        QTRY_VERIFY(diff.hasData());
        // The kernel's error is the same factor everywhere: the diff says so.
        QVERIFY2(diff.titleText().contains(QString::fromUtf8("actual ≈ 2.000 × expected")),
                 qPrintable(diff.titleText()));
        // The trace, like the diff, loads off the GUI thread.
        QTRY_VERIFY_WITH_TIMEOUT(!w.costPanel().stamp().stamp().isEmpty(), 20000);
        QVERIFY2(compare.stamp().stamp().startsWith(
                     QString::fromStdString(w.session().project()->name())) &&
                     compare.stamp().stamp().contains(QStringLiteral("Verify on sim")),
                 qPrintable(compare.stamp().stamp()));
        QCOMPARE(diff.stamp().stamp(), compare.stamp().stamp());
        QVERIFY(!diff.stamp().isStale() && !compare.stamp().isStale());

        kernel->setText(good);
        QTRY_VERIFY(compare.stamp().isStale()); // once the editor has its whole new text
        for (RunStampLabel* stamp : {&diff.stamp(), &compare.stamp(), &w.costPanel().stamp()})
            QVERIFY2(stamp->isStale() && stamp->text().contains(QStringLiteral("kernel.py")),
                     qPrintable(stamp->text()));

        QVERIFY(verify(w));
        QCOMPARE(compare.model().failures(), 0);
        QVERIFY(!diff.hasData()); // the earlier failure is gone
        QVERIFY2(diff.titleText().contains(QStringLiteral("Every output passes")),
                 qPrintable(diff.titleText()));
        QVERIFY(!diff.stamp().isStale() && !compare.stamp().isStale());
        compare.table().clicked(compare.model().index(0, 0)); // a passing row shows its diff
        QTRY_VERIFY(diff.hasData());

        // A kernel that raises: the ERROR row shows the case error, not the diff above.
        kernel->setText(QString(good).replace(QStringLiteral("pypto.set_vec_tile_shapes(1, 64)"),
                                              QStringLiteral("raise ValueError('tile plan')")));
        QVERIFY(verify(w));
        QCOMPARE(compare.model().index(0, VerificationModel::VerdictColumn).data().toString(),
                 QStringLiteral("ERROR"));
        QVERIFY(!diff.hasData());
        QVERIFY2(diff.titleText().contains(QStringLiteral("tile plan")),
                 qPrintable(diff.titleText()));
        QVERIFY2(w.statusText().contains(QStringLiteral("error in case")),
                 qPrintable(w.statusText()));
        // ... and is a problem at the line that raised, in the Problems dock and the margin.
        const int raised = int(kernel->text()
                                   .left(kernel->text().indexOf(QStringLiteral("raise")))
                                   .count(QLatin1Char('\n'))) +
                           1;
        bool listed = false;
        for (int row = 0; row < w.problems().rowCount(); ++row) {
            const Diagnostic& d = w.problems().diagnosticAt(row);
            listed =
                listed || (QString::fromStdString(d.file).endsWith(QStringLiteral("kernel.py")) &&
                           d.line == raised && d.message.find("tile plan") != std::string::npos);
        }
        QVERIFY2(listed, qPrintable(QStringLiteral("no problem at kernel.py:%1").arg(raised)));
        QVERIFY(kernel->markedLines().contains(raised - 1));

        kernel->setText(good);
        QString error;
        QVERIFY(w.session().saveAll(error));
        QVERIFY(w.openProject(copySample(other, "softmax")));
        QCOMPARE(compare.model().rowCount(), 0);
        QVERIFY(compare.stamp().stamp().isEmpty() && diff.stamp().stamp().isEmpty());
        QVERIFY(w.costPanel().stamp().stamp().isEmpty());
        QVERIFY(!diff.hasData());
        QVERIFY(w.statusText().isEmpty());
    }

    // A reference that never returns: Esc stops it within a second, and the time limit of the
    // settings stops it on its own, as an error of its case.
    void endlessReferenceIsCancelledAndTimedOut()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        CodeEditor* reference = w.session().editor(Document::Reference);
        reference->setText(reference->text().replace(
            QStringLiteral("    return "),
            QStringLiteral("    i = 0\n    while i >= 0:\n        i = i + 1\n    return ")));
        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        QSignalSpy progress(&w.runs().runner(), &PipelineRunner::progress);
        auto referenceRuns = [&] {
            for (const QList<QVariant>& step : progress)
                if (step.at(1).toString().contains(QStringLiteral("on the reference"))) return true;
            return false;
        };
        w.runs().verifyAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(referenceRuns(), 60000);
        QTest::qWait(500); // into its loop, on an idle machine (the wait is not what is measured)
        QElapsedTimer cancelling;
        cancelling.start();
        w.runs().cancelAction()->trigger();
        QVERIFY(finished.wait(10000));
        const qint64 stoppingMs = cancelling.elapsed();
        qInfo("Cancel stopped an endless reference in %lld ms", stoppingMs);
        // Within a second of the click, plus a margin for a loaded machine.
        QVERIFY2(stoppingMs < 2000, qPrintable(QString::number(stoppingMs)));
        QVERIFY(!w.runs().runner().lastResult().ok());

        {
            SettingsDialog settings;
            settings.caseTimeLimitEdit().setValue(2);
            QCOMPARE(settings.save(), QString());
        }
        QCOMPARE(SettingsDialog::caseTimeLimit(), 2.0);
        QVERIFY(verify(w));
        // The limit stopped the reference, as the status says.
        QVERIFY2(w.statusText().contains(QStringLiteral("within 2 s")), qPrintable(w.statusText()));
        QSettings().remove(QStringLiteral("run/caseTimeLimit"));
    }

    // A run marks the panels stale while it goes on; one that verifies nothing (the verify
    // unchanged) leaves them as they were. No other project opens while a run is going on: its
    // results would land in that project's panels.
    void runsThatVerifyNothingLeaveResultsCurrent()
    {
        QTemporaryDir dir, other;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(verify(w));
        QVERIFY(!w.comparePanel().stamp().isStale());
        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        w.runs().exportAction()->trigger();
        QVERIFY(w.comparePanel().stamp().isStale()); // while it runs
        QVERIFY(!w.openProject(copySample(other, "scale_gelu")));
        QVERIFY2(w.statusText().contains(QStringLiteral("A run is in progress")),
                 qPrintable(w.statusText()));
        QVERIFY(finished.wait(60000));
        QVERIFY2(w.runs().runner().lastResult().ok(), qPrintable(w.log().toPlainText()));
        QVERIFY2(!w.comparePanel().stamp().isStale(), qPrintable(w.comparePanel().stamp().text()));
        QVERIFY(!w.diffPanel().stamp().isStale());
        QVERIFY(w.openProject(other.path()));
    }

    // Only text that differs from what the shown run used makes its results stale: an edit fixed
    // by the next Verify is forgotten by a later Export, and text put back as it was is no edit.
    void onlyRealEditsMakeResultsStale()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        const QString original = kernel->text();
        QVERIFY(verify(w));
        QTRY_VERIFY_WITH_TIMEOUT(!w.costPanel().stamp().stamp().isEmpty(), 20000);
        auto staleStamps = [&] {
            QStringList stale;
            for (RunStampLabel* stamp :
                 {&w.comparePanel().stamp(), &w.diffPanel().stamp(), &w.costPanel().stamp()})
                if (stamp->isStale()) stale << stamp->text();
            return stale.join(QLatin1Char('\n'));
        };
        QCOMPARE(staleStamps(), QString());

        kernel->setText(original + QStringLiteral("# a note\n"));
        QTRY_VERIFY(w.comparePanel().stamp().isStale());
        QVERIFY(verify(w));
        QTRY_COMPARE_WITH_TIMEOUT(staleStamps(), QString(), 20000);

        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        w.runs().exportAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(w.runs().runner().lastResult().ok(), qPrintable(w.log().toPlainText()));
        QCOMPARE(staleStamps(), QString());
        w.runs().exportAction()->trigger(); // and again
        QVERIFY(finished.wait(60000));
        QCOMPARE(staleStamps(), QString());

        // The text the run used, typed again: modified, but not another kernel.
        const QString used = kernel->text();
        kernel->setText(used);
        QVERIFY(kernel->isModified());
        QTest::qWait(50);
        QCOMPARE(staleStamps(), QString());
        QString error;
        QVERIFY(w.session().saveAll(error));

        // Another program puts back the kernel the run did not use: that is a change.
        QSignalSpy changed(&w.session(), &EditorSession::diskChanged);
        writeLikeAnotherProgram(w.session().path(Document::Kernel), original.toUtf8());
        QVERIFY(changed.wait(30000));
        QTRY_VERIFY2(w.comparePanel().stamp().why().contains(QStringLiteral("kernel.py")),
                     qPrintable(w.comparePanel().stamp().text()));
    }

    // The Log lists each step's start and its result before the next step starts.
    void logLinesAreInOrder()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(verify(w));
        const QStringList lines = w.log().toPlainText().split(QLatin1Char('\n'));
        auto at = [&](const QString& start) {
            for (int k = 0; k < lines.size(); ++k)
                if (lines[k].startsWith(start)) return k;
            return -1;
        };
        const int validating = at(QStringLiteral("validate: checking")),
                  validated = at(QStringLiteral("validate: done")),
                  generating = at(QStringLiteral("generate: generating")),
                  generated = at(QStringLiteral("generate: ")),
                  verified = at(QStringLiteral("verify: done"));
        QVERIFY2(validating >= 0 && validating < validated && validated < generating &&
                     generating <= generated && generating < verified,
                 qPrintable(lines.join(QLatin1Char('\n'))));
    }

    // Another program rewrites a file: an unedited editor follows; an edited one asks, and keeps
    // its text when told to.
    void filesChangedOnDiskAreReloaded()
    {
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        EditorSession& session = w.session();
        CodeEditor* kernel = session.editor(Document::Kernel);
        const QString path = session.path(Document::Kernel);
        int asked = 0;
        bool answer = false;
        session.setReloadPrompt([&](const QString& asking) {
            ++asked;
            return asking == path && answer;
        });
        QSignalSpy changed(&session, &EditorSession::diskChanged);

        writeLikeAnotherProgram(path, readFile(path) + "# from another editor\n");
        QVERIFY(changed.wait(30000));
        QVERIFY(kernel->text().endsWith(QStringLiteral("# from another editor\n")));
        QVERIFY(!kernel->isModified());
        QCOMPARE(asked, 0);
        QCOMPARE(changed.takeFirst().at(1).toBool(), true);

        // Again (the watch survives a rename), now with unsaved edits: the author says no.
        kernel->append(QStringLiteral("# mine\n"));
        writeLikeAnotherProgram(path, readFile(path) + "# second outside edit\n");
        QVERIFY(changed.wait(30000));
        QCOMPARE(asked, 1);
        QCOMPARE(changed.takeFirst().at(1).toBool(), false);
        QVERIFY(kernel->text().endsWith(QStringLiteral("# mine\n")));
        QVERIFY(kernel->isModified());

        // The author says yes: the disk's text replaces the edits.
        answer = true;
        writeLikeAnotherProgram(path, "import pypto\n# replaced\n");
        QVERIFY(changed.wait(30000));
        QCOMPARE(asked, 2);
        QCOMPARE(kernel->text(), QStringLiteral("import pypto\n# replaced\n"));
        QVERIFY(!kernel->isModified());

        // Our own save is no outside change.
        kernel->append(QStringLiteral("# saved by us\n"));
        QString error;
        QVERIFY(session.saveAll(error));
        QVERIFY(!changed.wait(600));
        QCOMPARE(asked, 2);
    }

    // Close Project: the welcome page without the docks, no project, nothing left of its runs;
    // what needs a project is disabled there. A tab marks its file's unsaved edits.
    void closeProjectShowsTheWelcomePage()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(w.showsWelcome());
        for (QDockWidget* dock : w.findChildren<QDockWidget*>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
        for (QAction* action : w.findChildren<QAction*>())
            if (action->text() == QLatin1String("&Save") ||
                action->text() == QLatin1String("&Validate"))
                QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
        QVERIFY(!w.runs().verifyAction()->isEnabled() && !w.runs().redeployAction()->isEnabled());

        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(w.runs().verifyAction()->isEnabled() && w.runs().redeployAction()->isEnabled());
        QVERIFY(!w.showsWelcome());
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("runCompareDock"))->isVisible());
        QVERIFY(verify(w));
        QVERIFY(w.comparePanel().model().rowCount() > 0);

        auto* sourceTabs = w.findChild<QTabWidget*>(QStringLiteral("sourceTabs"));
        QCOMPARE(sourceTabs->tabText(1), QStringLiteral("reference.py"));
        w.session().editor(Document::Reference)->append(QStringLiteral("# unsaved\n"));
        QCOMPARE(sourceTabs->tabText(1), QStringLiteral("reference.py •"));
        QCOMPARE(sourceTabs->tabText(0), QStringLiteral("kernel.py"));
        w.setUnsavedChangesPrompt([](QWidget*) { return QMessageBox::Cancel; });
        QVERIFY(!w.closeProject()); // cancelled: still open, edits kept
        QVERIFY(w.session().project());
        w.setUnsavedChangesPrompt([](QWidget*) { return QMessageBox::Discard; });
        QVERIFY(w.closeProject());
        QVERIFY(!w.session().project());
        QVERIFY(w.showsWelcome());
        QVERIFY(!w.runs().verifyAction()->isEnabled());
        QCOMPARE(w.comparePanel().model().rowCount(), 0);
        QVERIFY(!w.session().editor(Document::Kernel)->isEnabled());
        QVERIFY(w.session().editor(Document::Kernel)->text().isEmpty());
        for (QDockWidget* dock : w.findChildren<QDockWidget*>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
        QVERIFY(!readFile(dir.filePath(QStringLiteral("reference.py"))).contains("# unsaved"));
    }

    // A sample opens as the author's copy, made once; edits never reach the shipped sample.
    void samplesOpenAsCopies()
    {
        QTemporaryDir copies;
        QSettings().setValue(QStringLiteral("samples/folder"), copies.path());
        const QString sample = QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax");
        const QByteArray shipped = readFile(sample + QStringLiteral("/kernel.py"));
        MainWindow w;
        QVERIFY(w.openSample(sample));
        const QString copy = copies.filePath(QStringLiteral("softmax"));
        QCOMPARE(QString::fromStdString(w.session().project()->folder()), copy);
        QVERIFY(TrustedFolders::isTrusted(copy));
        w.session().editor(Document::Kernel)->append(QStringLiteral("# my change\n"));
        QString error;
        QVERIFY(w.session().saveAll(error));
        QCOMPARE(readFile(sample + QStringLiteral("/kernel.py")), shipped);
        QVERIFY(w.closeProject());
        QVERIFY(w.openSample(sample)); // the same copy again, with the change
        QVERIFY(
            w.session().editor(Document::Kernel)->text().endsWith(QStringLiteral("# my change\n")));
        QVERIFY(!QFileInfo::exists(copy + QStringLiteral(".copying")));
        // Named on the command line (`./setup.sh run`), a sample opens as the copy too.
        QVERIFY(w.closeProject());
        QVERIFY(w.openFromCommandLine(sample + QStringLiteral("/op.json")));
        QCOMPARE(QString::fromStdString(w.session().project()->folder()), copy);
        QSettings().remove(QStringLiteral("samples/folder"));
    }

    // The histogram's x axis has a tick per decade and labels that do not overlap.
    void histogramAxisHasTicks()
    {
        Tensor expected(DType::Float32, {64}), actual(DType::Float32, {64});
        for (int k = 0; k < 64; ++k) {
            expected.set(k, 1.0);
            actual.set(k, 1.0 + std::pow(10.0, -7 + k % 9));
        }
        HistogramView view;
        view.resize(600, 72);
        view.setHistogram(errorHistogram(actual, expected));
        const auto ticks = view.ticks();
        QCOMPARE(int(ticks.size()), 11); // 1e-8 ... 1e2
        QStringList labels;
        int previous = -1;
        for (const auto& [x, label] : ticks) {
            QVERIFY(x > previous);
            previous = x;
            if (!label.isEmpty()) labels << label;
        }
        QVERIFY2(labels.contains(QStringLiteral("1e-4")) && labels.size() >= 5,
                 qPrintable(labels.join(QLatin1Char(' '))));
        view.resize(160, 72); // narrow: fewer labels, never overlapping
        int labelled = 0;
        for (const auto& tick : view.ticks())
            labelled += !tick.second.isEmpty();
        QVERIFY(labelled < labels.size());
    }

    // A value of one element is drawn as one small cell, not as the whole pane.
    void smallValuesAreDrawnToScale()
    {
        Tensor one(DType::Float32, {1, 1});
        one.set(0, 3.0);
        SliceSpec slice;
        slice.rowAxis = 0;
        slice.colAxis = 1;
        slice.fixed = {0, 0};
        TensorHeatmap map;
        map.resize(400, 300);
        map.setValues(one, slice, computeMagnitudeMap(one, slice, 512, 512));
        QVERIFY(!map.describeAt(QPoint(10, 10)).isEmpty());
        QVERIFY(map.describeAt(QPoint(200, 150)).isEmpty());
    }

    // The wizard offers the folder of projects the welcome page uses, then the folder its last
    // project was made in.
    void wizardRemembersItsFolder()
    {
        QTemporaryDir parent;
        QSettings().remove(QStringLiteral("wizard/parentFolder"));
        QCOMPARE(QFileInfo(NewOperatorWizard(nullptr, parent.path()).folder()).absolutePath(),
                 parent.path());
        {
            NewOperatorWizard wizard;
            wizard.setFolder(parent.filePath(QStringLiteral("first_op")));
            wizard.setOpName(QStringLiteral("first_op"));
            QCOMPARE(wizard.createProject(), QString());
        }
        NewOperatorWizard again;
        QCOMPARE(QFileInfo(again.folder()).absolutePath(), parent.path());
    }
};

QTEST_MAIN(TestResults)
#include "tst_results.moc"
