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
#include "cost_trace_panel.h"
#include "histogram_view.h"
#include "generated_glue_panel.h"
#include "line_cost_model.h"
#include "settings_dialog.h"
#include "welcome_page.h"
#include "package/package_check.h"
#include "project/project.h"

#include <nlohmann/json.hpp>

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
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
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
        QTRY_VERIFY2(!kernel->lineNote(storeLine).isEmpty(), qPrintable(kernel->text())); // the trace is read off the GUI thread
        QVERIFY(kernel->lineNote(1).isEmpty());

        // Cost/trace: every costed line listed, most expensive first; a row goes to its line.
        CostTracePanel& costs = w.costPanel();
        QAbstractItemModelTester costTester(&costs.costs(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(costs.costs().rowCount() >= 3);
        QVERIFY(costs.costs().totalUs() > 0);
        double previous = 1e300;
        for (int row = 0; row < costs.costs().rowCount(); ++row) {
            const double share = costs.costs().index(row, 0).data(LineCostModel::ShareRole).toDouble();
            QVERIFY(share <= previous);
            previous = share;
        }
        const int gLine = lineOf(kernel->text(), QStringLiteral("g = v *"));
        QCOMPARE(costs.costs().index(0, LineCostModel::StatementColumn).data().toString(),
                 kernel->text(costs.costs().index(0, 0).data(LineCostModel::LineRole).toInt() - 1).trimmed());
        // The cursor on a kernel line shows what that line computed in the simulator.
        kernel->setCursorPosition(gLine - 1, 4); // the editor reports the move when it next updates
        QTRY_VERIFY2(costs.intermediateText().contains(QStringLiteral("line %1").arg(gLine)), qPrintable(costs.intermediateText()));
        QTRY_VERIFY2(costs.intermediateText().contains(QStringLiteral("float16[1, 32]")), qPrintable(costs.intermediateText()));
        QVERIFY(costs.intermediateMap().map().error.empty());
        QCOMPARE(costs.intermediateMap().map().cols, 32);
        QVERIFY(costs.intermediateMap().describeAt(QPoint(10, 10)).startsWith(QStringLiteral("[0, ")));
        kernel->setCursorPosition(1, 0); // `import pypto`: nothing captured there
        QTRY_VERIFY(costs.intermediateText().contains(QStringLiteral("nothing captured")));
        QVERIFY(costs.intermediateMap().map().cells.empty());
        QSignalSpy activated(&costs, &CostTracePanel::lineActivated);
        costs.costTable().clicked(costs.costs().index(0, 1));
        QCOMPARE(activated.count(), 1);
        int cursorLine = 0, cursorIndex = 0;
        kernel->getCursorPosition(&cursorLine, &cursorIndex);
        QCOMPARE(cursorLine + 1, costs.costs().index(0, 0).data(LineCostModel::LineRole).toInt());

        // Generated glue: the files of the generation, nothing changed yet.
        GeneratedGluePanel& glue = w.gluePanel();
        QVERIFY(glue.changes().size() >= 10);
        for (const auto& change : glue.changes()) QCOMPARE(int(change.status), int(codegen::GlueFileChange::Status::Unchanged));
        QVERIFY(glue.showFile(QStringLiteral("python/pto_scale_gelu/__init__.py")));
        QCOMPARE(glue.fileView().language(), CodeEditor::Language::Python);
        QVERIFY(glue.fileView().isReadOnly());
        QVERIFY(glue.fileView().text().contains(QStringLiteral("scale_gelu")));
        const QString good = kernel->text();
        kernel->setText(QString(good).replace(QStringLiteral("g * scale"), QStringLiteral("g * scale * 2.0")));
        QVERIFY(costs.summaryText().contains(QStringLiteral("kernel edited since")));
        panel.verifyAction()->trigger(); // saves first
        QVERIFY(finished.wait(60000));
        QVERIFY(!panel.runner().lastResult().ok());
        QCOMPARE(panel.verification().failures(), 2);
        QTRY_VERIFY(!costs.summaryText().contains(QStringLiteral("kernel edited since"))); // a new run, once read
        QVERIFY(readFile(dir.filePath(QStringLiteral("kernel.py"))).contains("g * scale * 2.0"));
        const QModelIndex verdict = panel.verification().index(0, VerificationModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QStringLiteral("FAIL"));
        QVERIFY(panel.log().toPlainText().contains(QStringLiteral("verify: FAILED")));
        // The first failure opens in the Tensor diff dock: error everywhere the kernel doubled.
        TensorDiffPanel& diff = panel.tensorDiff();
        QTRY_VERIFY(diff.heatmap().map().maxError > 0.1); // the outputs are read off the GUI thread
        QVERIFY(diff.heatmap().map().error.empty());
        QCOMPARE(diff.heatmap().map().rows, 4);
        QCOMPARE(diff.heatmap().map().cols, 32);
        for (float cell : diff.heatmap().map().cells) QVERIFY(cell >= 0);
        QVERIFY(diff.worstTable().rowCount() > 0);
        QVERIFY(diff.histogram().counts.front() < 4 * 32); // few elements are exact
        QCOMPARE(diff.histogramView().describeBin(0), QStringLiteral("exact: %1").arg(diff.histogram().counts.front()));
        QVERIFY(diff.histogramView().describeAt(QPoint(-5, 5)).isEmpty());
        const QString hover = diff.heatmap().describeAt(QPoint(20, 20));
        QVERIFY2(hover.contains(QStringLiteral("expected")) && hover.contains(QStringLiteral("actual")), qPrintable(hover));
        diff.worstTable().cellClicked(0, 0);
        const QVariantList worstIndex = diff.worstTable().item(0, 0)->data(Qt::UserRole).toList();
        QCOMPARE(diff.expectedView().currentIndex().row(), worstIndex.at(0).toInt());
        QCOMPARE(diff.expectedView().currentIndex().column(), worstIndex.at(1).toInt());
        QAbstractItemModelTester expectedTester(&diff.expectedValues(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester actualTester(&diff.actualValues(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(diff.expectedValues().rowCount(), 4);
        QCOMPARE(diff.actualValues().columnCount(), 32);
        const double e0 = diff.expectedValues().index(1, 1).data().toDouble(), a0 = diff.actualValues().index(1, 1).data().toDouble();
        QVERIFY(std::abs(a0 - 2 * e0) <= 2e-3 * std::abs(e0) + 2e-3); // the kernel doubled it

        // The new kernel's hash is in the glue: the changed files and their diff.
        int changed = 0;
        for (const auto& change : glue.changes()) changed += change.status == codegen::GlueFileChange::Status::Changed;
        QVERIFY(changed >= 1);
        // The dock moved to the first changed file and shows its diff.
        QVERIFY(glue.diffView().isVisibleTo(&glue));
        QVERIFY(!glue.fileList().currentItem()->text(1).isEmpty());
        for (const auto& change : glue.changes())
            if (change.status == codegen::GlueFileChange::Status::Changed) {
                QVERIFY(glue.showFile(QString::fromStdString(change.path)));
                QVERIFY(glue.diffView().text().startsWith(QStringLiteral("--- a/")));
                QVERIFY(glue.diffView().text().contains(QStringLiteral("\n+")) && glue.diffView().text().contains(QStringLiteral("\n-")));
                break;
            }

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

    // A large failing case: the run and the display of its diff (4M elements: reading both
    // outputs, the error map, the histogram) never hold the event loop for long.
    void largeFailingCaseKeepsTheWindowResponsive()
    {
        QTemporaryDir dir;
        copySample(dir, "scale_gelu");
        const QString op = dir.filePath(QStringLiteral("op.json"));
        auto description = nlohmann::json::parse(readFile(op).toStdString());
        description["cases"] = nlohmann::json::parse(R"json([{ "name": "large", "inputs": { "x": { "shape": [2048, 2048], "dtype": "float32",
            "fill": "uniform(-4, 4)" } }, "parameters": { "channels": 2048 } }])json");
        QFile opFile(op);
        QVERIFY(opFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
        opFile.write(QByteArray::fromStdString(description.dump(2)));
        opFile.close();
        MainWindow w;
        w.show();
        QVERIFY(w.openProject(dir.path()));
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        kernel->setText(kernel->text().replace(QStringLiteral("g * scale"), QStringLiteral("g * scale * 2.0")));
        RunPanel& panel = w.runPanel();
        QSignalSpy finished(&panel.runner(), &PipelineRunner::finished);
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
        QSignalSpy diffShown(&panel.tensorDiff(), &TensorDiffPanel::outputShown);
        QSignalSpy costsShown(&w.costPanel(), &CostTracePanel::runShown);
        QVERIFY(finished.wait(120000));
        QVERIFY(diffShown.count() > 0 || diffShown.wait(20000)); // the failure's diff, loaded off the GUI thread
        QVERIFY(costsShown.count() > 0 || costsShown.wait(20000));
        QTest::qWait(100);
        ticker.stop();
        qInfo("large case: verify and diff took %lld ms; longest GUI event-loop gap %lld ms", clock.elapsed(), longest);
        QCOMPARE(panel.verification().failures(), 1);
        QCOMPARE(panel.tensorDiff().heatmap().map().rows, 2048);
        QVERIFY(panel.tensorDiff().heatmap().map().cellRows == 4); // 2048 rows pooled into 512 cells
        QVERIFY2(longest < 1000, "the window froze"); // the target, 100 ms, is measured and reported above
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
        for (const char* name : {"Verify", "Redeploy", "Save", "Validate", "New Operator", "Open Project", "Generate", "Export", "Settings",
                                 "Welcome Page", "Generated glue", "Cost/trace", "Tensor diff"})
            QVERIFY2(all.contains(QString::fromLatin1(name)), qPrintable(all.join(QStringLiteral(", "))));
        // Every command has a shortcut (recent projects aside: they are a list).
        for (QAction* action : w.findChildren<QAction*>())
            if (!action->text().isEmpty() && !action->isSeparator() && !action->menu() && !action->text().startsWith(QLatin1Char('/')) &&
                action->text() != QLatin1String("Main"))
                QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->text()));
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

    // With no project the window shows the welcome page; a sample opens from it.
    void welcomePageOpensSamples()
    {
        MainWindow w;
        QVERIFY(w.showsWelcome());
        QListWidget& samples = w.welcomePage().samples();
        QStringList names;
        for (int row = 0; row < samples.count(); ++row) names << samples.item(row)->text().section(QStringLiteral(" — "), 0, 0);
        for (const char* sample : {"matmul_bias", "scale_gelu", "softmax"}) QVERIFY2(names.contains(QLatin1String(sample)), qPrintable(names.join(',')));
        QTemporaryDir dir;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(!w.showsWelcome());
        w.welcomePage().refresh();
        QCOMPARE(w.welcomePage().recent().item(0)->data(Qt::UserRole).toString(), QFileInfo(dir.path()).absoluteFilePath());
        QVERIFY(w.welcomePage().recent().item(0)->text().startsWith(QStringLiteral("softmax")));
    }

    // Completion words are prepared on a thread: an editor closed at once must not crash.
    void editorsCloseWhilePreparingCompletion()
    {
        for (int k = 0; k < 40; ++k) {
            auto editor = std::make_unique<CodeEditor>(k % 2 ? CodeEditor::Language::Json : CodeEditor::Language::Python);
            editor->setText(QStringLiteral("x"));
        }
    }

    // Hover help: pypto functions and dtypes in the kernel, op.json keys and rule functions.
    void hoverHelp()
    {
        CodeEditor python(CodeEditor::Language::Python);
        python.setText(QStringLiteral("import pypto\ny = pypto.matmul(a, b, pypto.DT_FP32)\nexp = 1\n"));
        auto at = [](CodeEditor& editor, int line, int index) { return editor.helpAt(editor.positionFromLineIndex(line, index)); };
        QVERIFY2(at(python, 1, 12).startsWith(QStringLiteral("pypto.matmul(input, mat2, out_dtype, *, a_trans=")), qPrintable(at(python, 1, 12)));
        QVERIFY(at(python, 1, 12).contains(QStringLiteral("fp32")));
        QVERIFY(at(python, 1, 35).contains(QStringLiteral("float32")));
        QVERIFY(at(python, 2, 1).isEmpty()); // a local name, not pypto's
        QVERIFY(at(python, 1, 18).isEmpty()); // an argument
        CodeEditor json(CodeEditor::Language::Json);
        json.setText(QStringLiteral("{ \"dtypes\": [\"float16\"], \"shape\": \"broadcast(a.shape, b.shape)\", \"zzz\": 1 }"));
        QVERIFY(json.helpAt(4).contains(QStringLiteral("dtypes an input accepts")));
        QVERIFY(json.helpAt(16).contains(QStringLiteral("2 bytes")));
        QVERIFY(json.helpAt(40).contains(QStringLiteral("NumPy broadcast")));
        QVERIFY(json.helpAt(json.text().indexOf(QStringLiteral("zzz")) + 1).isEmpty());
        QVERIFY(json.helpAt(-1).isEmpty() && json.helpAt(100000).isEmpty());
    }

    // Settings: a runners.json with errors is not saved and its text stays; a valid one and the
    // default tolerances are written, and Verify judges with them.
    void settingsSaveCheckedFiles()
    {
        QFile::remove(userConfigFile(QStringLiteral("runners.json")));
        QFile::remove(userConfigFile(QStringLiteral("tolerances.json")));
        {
            SettingsDialog settings;
            settings.runnersEditor().setText(QStringLiteral("{ \"runners\": [ { \"name\": \"phone\", \"timeout_s\": \"soon\" } ] }"));
            QVERIFY2(settings.problemsText(0).contains(QStringLiteral("1:")), qPrintable(settings.problemsText(0)));
            QVERIFY(!settings.runnersEditor().markedLines().isEmpty());
            QVERIFY(settings.save().contains(QStringLiteral("runners.json has errors")));
            QVERIFY(!QFile::exists(userConfigFile(QStringLiteral("runners.json"))));
            QVERIFY(settings.runnersEditor().text().contains(QStringLiteral("soon")));
            const QString good = QStringLiteral("{ \"name\": \"phone\", \"command\": [\"run_op\", \"{run_dir}\"] }\n");
            settings.runnersEditor().setText(good);
            QCOMPARE(settings.problemsText(0), QStringLiteral("No problems."));
            const int row = [&] {
                for (int r = 0; r < settings.toleranceTable().rowCount(); ++r)
                    if (settings.toleranceTable().verticalHeaderItem(r)->text() == QLatin1String("float16")) return r;
                return -1;
            }();
            QVERIFY(row >= 0);
            settings.toleranceTable().item(row, 0)->setText(QStringLiteral("0"));
            settings.toleranceTable().item(row, 1)->setText(QStringLiteral("1e-9"));
            settings.minCosineEdit().setText(QStringLiteral("1"));
            QCOMPARE(settings.save(), QString());
            QCOMPARE(readFile(userConfigFile(QStringLiteral("runners.json"))), good.toUtf8());
            QVERIFY(readFile(userConfigFile(QStringLiteral("tolerances.json"))).contains("\"float16\""));
        }
        {
            SettingsDialog again; // reads back what was saved
            QCOMPARE(again.toleranceTable().item(0, 0)->text().isEmpty(), true);
            bool found = false;
            for (int r = 0; r < again.toleranceTable().rowCount(); ++r)
                found = found || again.toleranceTable().item(r, 1)->text() == QLatin1String("1e-09");
            QVERIFY(found);
        }
        // softmax's tolerance names the cosine criterion but no threshold: the user's default applies.
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QSignalSpy finished(&w.runPanel().runner(), &PipelineRunner::finished);
        w.runPanel().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        const VerificationReport& report = w.runPanel().verification().report();
        bool tightRule = false;
        for (const auto& c : report.cases)
            for (const auto& o : c.outputs) tightRule = tightRule || o.verdict.rule.find("cosine >= 1") != std::string::npos;
        QVERIFY2(tightRule, qPrintable(w.runPanel().log().toPlainText()));
        QFile::remove(userConfigFile(QStringLiteral("runners.json")));
        QFile::remove(userConfigFile(QStringLiteral("tolerances.json")));
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
