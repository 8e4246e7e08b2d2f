// The app shell, offscreen: open a sample project, break a rule in op.json and see the
// diagnostic at the right line in the editor and the Problems dock; fix it; save; close.
#include "code_editor.h"
#include "command_palette.h"
#include "main_window.h"
#include "problems_model.h"
#include "recent_projects.h"
#include "new_operator_wizard.h"
#include "run_panel.h"
#include "tensor_diff_panel.h"
#include "tensor_heatmap.h"
#include "slice_values_model.h"
#include <QTableWidget>
#include "verification_model.h"
#include "package/package_check.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QAction>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace ptowb;
using Document = EditorSession::Document;

namespace {

// A writable copy of a sample project.
QString copySample(const QTemporaryDir& dir, const char* name)
{
    const QDir source(QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QLatin1String(name));
    for (const QString& f : source.entryList(QDir::Files)) QFile::copy(source.filePath(f), dir.filePath(f));
    return dir.path();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int lineOf(const QString& text, const QString& needle) { return text.left(text.indexOf(needle)).count('\n') + 1; }

} // namespace

class TestApp : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptowb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_app"));
    }

    // The daily loop: Verify passes; a wrong kernel fails with its error shown; the fix passes;
    // Redeploy exports a package that checks; a cancelled Redeploy leaves no partial package.
    void verifyBreakFixRedeploy()
    {
        QTemporaryDir dir;
        MainWindow w;
        RunPanel& panel = w.runPanel();
        QAbstractItemModelTester tester(&panel.verification(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.show();
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        QVERIFY(validated.wait(5000));
        QSignalSpy finished(&panel.runner(), &PipelineRunner::finished);

        // The event loop keeps turning while the pipeline runs: measure the longest gap.
        QElapsedTimer clock;
        qint64 last = 0, longest = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, [&] {
            longest = std::max(longest, clock.elapsed() - last);
            last = clock.elapsed();
        });
        clock.start();
        ticker.start();
        panel.verifyAction()->trigger();
        QVERIFY(!panel.verifyAction()->isEnabled());
        QVERIFY(finished.wait(60000));
        ticker.stop();
        qInfo("longest GUI event-loop gap during Verify: %lld ms", longest);
        QVERIFY(panel.runner().lastResult().ok());
        QCOMPARE(panel.verification().rowCount(), 2);
        QCOMPARE(panel.verification().failures(), 0);

        // The simulator's estimate per kernel line, in the editor's margin.
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        const int storeLine = lineOf(kernel->text(), QStringLiteral("y[i:i + 1, :]"));
        QVERIFY2(!kernel->lineNote(storeLine).isEmpty(), qPrintable(kernel->text()));
        QVERIFY(kernel->lineNote(1).isEmpty());
        const QString good = kernel->text();
        kernel->setText(QString(good).replace(QStringLiteral("g * scale"), QStringLiteral("g * scale * 2.0")));
        panel.verifyAction()->trigger(); // saves first
        QVERIFY(finished.wait(60000));
        QVERIFY(!panel.runner().lastResult().ok());
        QCOMPARE(panel.verification().failures(), 2);
        QVERIFY(readFile(dir.filePath(QStringLiteral("kernel.py"))).contains("g * scale * 2.0"));
        const QModelIndex verdict = panel.verification().index(0, VerificationModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QStringLiteral("FAIL"));
        QVERIFY(panel.log().toPlainText().contains(QStringLiteral("verify: FAILED")));
        // The first failure opens in the Tensor diff dock: error everywhere the kernel doubled.
        TensorDiffPanel& diff = panel.tensorDiff();
        QVERIFY(diff.heatmap().map().error.empty());
        QVERIFY(diff.heatmap().map().maxError > 0.1);
        QCOMPARE(diff.heatmap().map().rows, 4);
        QCOMPARE(diff.heatmap().map().cols, 32);
        for (float cell : diff.heatmap().map().cells) QVERIFY(cell >= 0);
        QVERIFY(diff.worstTable().rowCount() > 0);
        QVERIFY(diff.histogram().counts.front() < 4 * 32); // few elements are exact
        const QString hover = diff.heatmap().describeAt(QPoint(20, 20));
        QVERIFY2(hover.contains(QStringLiteral("expected")) && hover.contains(QStringLiteral("actual")), qPrintable(hover));
        diff.worstTable().cellClicked(0, 0);
        QAbstractItemModelTester expectedTester(&diff.expectedValues(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester actualTester(&diff.actualValues(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(diff.expectedValues().rowCount(), 4);
        QCOMPARE(diff.actualValues().columnCount(), 32);
        const double e0 = diff.expectedValues().index(1, 1).data().toDouble(), a0 = diff.actualValues().index(1, 1).data().toDouble();
        QVERIFY(std::abs(a0 - 2 * e0) <= 2e-3 * std::abs(e0) + 2e-3); // the kernel doubled it

        kernel->setText(good);
        panel.redeployAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(panel.runner().lastResult().ok(), qPrintable(panel.log().toPlainText()));
        QCOMPARE(panel.verification().failures(), 0);
        const QString package = dir.filePath(QStringLiteral("packages/scale_gelu-1.0.0"));
        QVERIFY(checkPackage(package).ok());
        const QByteArray manifest = readFile(package + QStringLiteral("/manifest.json"));

        // Cancel a Redeploy right after it starts: the package from before stays, nothing partial.
        kernel->setText(good + QStringLiteral("# edited\n"));
        panel.redeployAction()->trigger();
        panel.cancelAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY(!panel.runner().lastResult().ok());
        QCOMPARE(readFile(package + QStringLiteral("/manifest.json")), manifest);
        QCOMPARE(QDir(dir.filePath(QStringLiteral("packages"))).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 (QStringList{QStringLiteral("scale_gelu-1.0.0"), QStringLiteral("scale_gelu-1.0.0.tar.gz")}));
    }

    // The New Operator wizard's project opens, validates and verifies clean against the simulator.
    void wizardProjectVerifiesClean_data()
    {
        QTest::addColumn<QString>("templateName");
        for (const char* name : {"elementwise", "reduction", "matmul"}) QTest::newRow(name) << QString::fromLatin1(name);
    }

    void wizardProjectVerifiesClean()
    {
        QFETCH(QString, templateName);
        QTemporaryDir dir;
        NewOperatorWizard wizard;
        wizard.setTemplate(templateName);
        wizard.setOpName(QStringLiteral("bad name"));
        wizard.setFolder(dir.filePath(QStringLiteral("op")));
        QVERIFY(!wizard.createProject().isEmpty()); // names are checked
        wizard.setOpName(QStringLiteral("fresh_") + templateName);
        wizard.setNamespace(QStringLiteral("demo"));
        QCOMPARE(wizard.createProject(), QString());
        QVERIFY(!wizard.createProject().isEmpty()); // the folder is no longer empty

        MainWindow w;
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(wizard.folder()));
        QVERIFY(validated.wait(5000));
        QCOMPARE(w.problems().rowCount(), 0);
        QSignalSpy finished(&w.runPanel().runner(), &PipelineRunner::finished);
        w.runPanel().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(w.runPanel().runner().lastResult().ok(), qPrintable(w.runPanel().log().toPlainText()));
        QCOMPARE(w.runPanel().verification().failures(), 0);
        QCOMPARE(w.runPanel().verification().rowCount(), 2);
    }

    void commandPaletteFindsEveryAction()
    {
        MainWindow w;
        w.show();
        auto* palette = w.findChild<CommandPalette*>();
        QVERIFY(palette);
        palette->open();
        const QStringList all = palette->visibleCommands();
        for (const char* name : {"Verify", "Redeploy", "Save", "Validate", "New Operator", "Open Project"})
            QVERIFY2(all.contains(QString::fromLatin1(name)), qPrintable(all.join(QStringLiteral(", "))));
        palette->setFilter(QStringLiteral("new op"));
        QCOMPARE(palette->visibleCommands(), QStringList{QStringLiteral("New Operator")});
        palette->setFilter(QStringLiteral("no such command"));
        QCOMPARE(palette->visibleCommands(), QStringList{});
        palette->setFilter(QStringLiteral("problems"));
        QCOMPARE(palette->visibleCommands().size(), 1); // the dock's toggle
        palette->hide();
    }

    void brokenRuleShowsAndClears()
    {
        QTemporaryDir dir;
        MainWindow w;
        QAbstractItemModelTester tester(&w.problems(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.show();
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        const QString folder = copySample(dir, "scale_gelu");
        QVERIFY(w.openProject(folder));
        QVERIFY(validated.wait(5000));
        QCOMPARE(w.problems().rowCount(), 0);
        QCOMPARE(w.windowTitle(), QFileInfo(folder).fileName() + QStringLiteral("[*] — PTO Workbench"));
        QVERIFY(!w.isWindowModified());

        CodeEditor* description = w.session().editor(Document::Description);
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        QVERIFY(description->text().contains(QStringLiteral("\"format\": \"ptowb-op/1\"")));
        QVERIFY(kernel->text().contains(QStringLiteral("def scale_gelu_kernel")));
        QVERIFY(w.session().editor(Document::Reference)->text().contains(QStringLiteral("def scale_gelu_reference")));

        // Break the shape rule the way a typo would.
        const QString good = description->text();
        const QString broken = QString(good).replace(QStringLiteral("[x.shape[0], channels]"), QStringLiteral("[x.shape[0], chanels]"));
        const int ruleLine = lineOf(good, QStringLiteral("[x.shape[0], channels]"));
        const int ruleColumn = good.split('\n')[ruleLine - 1].indexOf(QStringLiteral("channels]")) + 1;
        validated.clear();
        description->setText(broken);
        QVERIFY(w.isWindowModified());
        QVERIFY(validated.wait(5000)); // after the typing pause
        QTRY_COMPARE(w.problems().rowCount(), 1);
        const QModelIndex row = w.problems().index(0, ProblemsModel::MessageColumn);
        QCOMPARE(row.data(ProblemsModel::LineRole).toInt(), ruleLine);
        QCOMPARE(row.data(ProblemsModel::ColumnRole).toInt(), ruleColumn);
        QVERIFY(row.data().toString().contains(QStringLiteral("unknown name 'chanels'; did you mean 'channels'?")));
        QCOMPARE(description->markedLines(), QList<int>{ruleLine - 1});
        QVERIFY(description->annotationAt(ruleLine - 1).contains(QStringLiteral("unknown name 'chanels'")));
        QVERIFY(kernel->markedLines().isEmpty());

        // Activating the problem puts the cursor on the offending word.
        emit w.problemsView().activated(row);
        int line = -1, index = -1;
        description->getCursorPosition(&line, &index);
        QCOMPARE(line, ruleLine - 1);
        QCOMPARE(index, ruleColumn - 1);

        // Fix it: the diagnostic disappears from the dock and the editor.
        validated.clear();
        description->setText(good);
        QVERIFY(validated.wait(5000));
        QCOMPARE(w.problems().rowCount(), 0);
        QVERIFY(description->markedLines().isEmpty());
        QVERIFY(description->annotationAt(ruleLine - 1).isEmpty());
    }

    void saveWritesAtomicallyAndValidates()
    {
        QTemporaryDir dir;
        MainWindow w;
        const QString folder = copySample(dir, "softmax");
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(folder));
        QVERIFY(validated.wait(5000));
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        kernel->append(QStringLiteral("# tuned\n"));
        QVERIFY(w.session().isModified());
        QString error;
        QVERIFY(w.session().saveAll(error));
        QVERIFY(!w.session().isModified());
        QVERIFY(!w.isWindowModified());
        QVERIFY(readFile(dir.filePath("kernel.py")).endsWith("# tuned\n"));
        // No temporary files are left next to the saved one.
        QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 3);
    }

    void saveFailureKeepsTheText()
    {
        QTemporaryDir dir;
        MainWindow w;
        const QString folder = copySample(dir, "softmax");
        QVERIFY(w.openProject(folder));
        CodeEditor* description = w.session().editor(Document::Description);
        description->append(QStringLiteral(" "));
        // The folder vanishes under the open project (unmounted, deleted elsewhere).
        QVERIFY(QDir(folder).removeRecursively());
        QString error;
        QVERIFY(!w.session().saveAll(error));
        QVERIFY(error.contains(QStringLiteral("op.json")));
        QVERIFY(w.session().isModified()); // nothing lost: the edit is still in the editor
        QVERIFY(description->text().endsWith(' '));
    }

    void unsavedChangesAreNotLostOnClose()
    {
        QTemporaryDir dir;
        const QString folder = copySample(dir, "matmul_bias");
        auto* w = new MainWindow;
        QVERIFY(w->openProject(folder));
        w->show();
        w->session().editor(Document::Reference)->append(QStringLiteral("# note\n"));
        int asked = 0;
        w->setUnsavedChangesPrompt([&](QWidget*) {
            ++asked;
            return QMessageBox::Cancel;
        });
        QVERIFY(!w->close());
        QCOMPARE(asked, 1);
        QVERIFY(w->isVisible());
        w->setUnsavedChangesPrompt([&](QWidget*) {
            ++asked;
            return QMessageBox::Save;
        });
        QVERIFY(w->close());
        QCOMPARE(asked, 2);
        QVERIFY(readFile(dir.filePath("reference.py")).endsWith("# note\n"));
        delete w;
    }

    void openErrorsAndRecentProjects()
    {
        QTemporaryDir empty;
        MainWindow w;
        QVERIFY(!w.openProject(empty.path()));
        QVERIFY(!w.openProject(QStringLiteral("/nonexistent/folder")));
        QTemporaryDir dir;
        const QString folder = copySample(dir, "scale_gelu");
        QVERIFY(w.openProject(folder + "/op.json")); // the op.json path works too
        QCOMPARE(RecentProjects::list().first(), QDir::cleanPath(folder));
    }

    void referenceErrorsShowInTheReferenceEditor()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(validated.wait(10000));
        QCOMPARE(w.problems().rowCount(), 0);
        CodeEditor* reference = w.session().editor(Document::Reference);
        const QString good = reference->text();
        validated.clear();
        reference->setText(QString(good).replace(QStringLiteral("torch.softmax("), QStringLiteral("torch.sofmax(")));
        QVERIFY(validated.wait(10000));
        QCOMPARE(w.problems().rowCount(), 1);
        const int line = lineOf(good, QStringLiteral("torch.softmax("));
        QCOMPARE(w.problems().index(0, 0).data(ProblemsModel::LineRole).toInt(), line);
        QCOMPARE(reference->markedLines(), QList<int>{line - 1});
        QVERIFY(w.session().editor(Document::Description)->markedLines().isEmpty());
        validated.clear();
        reference->setText(good);
        QVERIFY(validated.wait(10000));
        QCOMPARE(w.problems().rowCount(), 0);
    }

    void invalidJsonWhileTyping()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        QVERIFY(validated.wait(5000));
        CodeEditor* description = w.session().editor(Document::Description);
        validated.clear();
        description->setText(description->text().left(40)); // truncated mid-file, as while typing
        QVERIFY(validated.wait(5000));
        QCOMPARE(w.problems().rowCount(), 1);
        QCOMPARE(w.problems().index(0, 0).data(ProblemsModel::CodeRole).toString(), QStringLiteral("json.syntax"));
    }
};

QTEST_MAIN(TestApp)
#include "tst_app.moc"
