// The app shell, offscreen: open a sample project, break a rule in op.json and see the
// diagnostic at the right line in the editor and the Problems dock; fix it; save; close. The
// welcome page, hover help, the command palette and shortcuts. (The verify loop: tst_workbench.)
#include "app_test_support.h"
#include "code_editor.h"
#include "command_palette.h"
#include "main_window.h"
#include "pipeline_runner.h"
#include "problems_model.h"
#include "project/project.h"
#include "recent_projects.h"
#include "run_controller.h"
#include "trusted_folders.h"
#include "welcome_page.h"

#include <QAction>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTreeView>
#include <QtTest>
#include <memory>

using namespace ptowb;
using namespace ptowb::testing;
using Document = EditorSession::Document;

class TestApp : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptowb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_app"));
        // Sample copies live in temporary folders: the tests trust them, and count the asks.
        TrustedFolders::prompt() = [this](const QString&, const QString&) {
            ++m_trustAsks;
            return m_trustAnswer;
        };
    }

    void commandPaletteFindsEveryAction()
    {
        MainWindow w;
        w.show();
        auto* palette = w.findChild<CommandPalette*>();
        QVERIFY(palette);
        palette->open(); // the welcome page: nothing that needs a project
        QVERIFY(!palette->visibleCommands().contains(QStringLiteral("Verify")));
        QVERIFY(palette->visibleCommands().contains(QStringLiteral("New Operator")));
        QTemporaryDir dir;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        palette->open();
        const QStringList all = palette->visibleCommands();
        for (const char* name :
             {"Verify", "Redeploy", "Save", "Validate", "New Operator", "Open Project", "Generate",
              "Export", "Settings", "Welcome Page", "Generated glue", "Cost/trace", "Tensor diff"})
            QVERIFY2(all.contains(QString::fromLatin1(name)),
                     qPrintable(all.join(QStringLiteral(", "))));
        // Every command has a shortcut (recent projects aside: they are a list).
        for (QAction* action : w.findChildren<QAction*>())
            if (!action->text().isEmpty() && !action->isSeparator() && !action->menu() &&
                !action->text().startsWith(QLatin1Char('/')) &&
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
        QAbstractItemModelTester tester(&w.problems(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.show();
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        const QString folder = copySample(dir, "scale_gelu");
        QVERIFY(w.openProject(folder));
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 0);
        QCOMPARE(w.windowTitle(),
                 QFileInfo(folder).fileName() + QStringLiteral("[*] — PTO Workbench"));
        QVERIFY(!w.isWindowModified());

        CodeEditor* description = w.session().editor(Document::Description);
        CodeEditor* kernel = w.session().editor(Document::Kernel);
        QVERIFY(description->text().contains(QStringLiteral("\"format\": \"ptowb-op/1\"")));
        QVERIFY(kernel->text().contains(QStringLiteral("def scale_gelu_kernel")));
        QVERIFY(w.session()
                    .editor(Document::Reference)
                    ->text()
                    .contains(QStringLiteral("def scale_gelu_reference")));

        // Break the shape rule the way a typo would.
        const QString good = description->text();
        const QString broken = QString(good).replace(QStringLiteral("[x.shape[0], channels]"),
                                                     QStringLiteral("[x.shape[0], chanels]"));
        const int ruleLine = lineOf(good, QStringLiteral("[x.shape[0], channels]"));
        const int ruleColumn =
            good.split('\n')[ruleLine - 1].indexOf(QStringLiteral("channels]")) + 1;
        validated.clear();
        description->setText(broken);
        QVERIFY(w.isWindowModified());
        QVERIFY(validated.wait(30000)); // after the typing pause
        QTRY_COMPARE(w.problems().rowCount(), 1);
        const QModelIndex row = w.problems().index(0, ProblemsModel::MessageColumn);
        QCOMPARE(row.data(ProblemsModel::LineRole).toInt(), ruleLine);
        QCOMPARE(row.data(ProblemsModel::ColumnRole).toInt(), ruleColumn);
        QVERIFY(row.data().toString().contains(
            QStringLiteral("unknown name 'chanels'; did you mean 'channels'?")));
        QCOMPARE(description->markedLines(), QList<int>{ruleLine - 1});
        QVERIFY(description->annotationAt(ruleLine - 1)
                    .contains(QStringLiteral("unknown name 'chanels'")));
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
        QVERIFY(validated.wait(30000));
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
        QVERIFY(validated.wait(30000));
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
        // Verify saves first: it runs nothing, says why, and keeps the edit.
        m_trustAnswer = true;
        w.runs().verifyAction()->trigger();
        QVERIFY(!w.runs().runner().isRunning());
        QVERIFY2(w.statusText().contains(QStringLiteral("Verify not run")) &&
                     w.statusText().contains(QStringLiteral("op.json")),
                 qPrintable(w.statusText()));
        QVERIFY2(w.log().toPlainText().contains(QStringLiteral("== Verify not run")),
                 qPrintable(w.log().toPlainText()));
        QVERIFY(w.session().isModified());
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

    // A project whose opening took the app down (libtorch crashed while the reference was
    // checked in the app's process) is not reopened at the next start, where it would again.
    void projectThatStoppedTheAppIsNotReopened()
    {
        QTemporaryDir dir;
        const QString folder = QDir::cleanPath(copySample(dir, "softmax"));
        {
            MainWindow w;
            QVERIFY(w.openProject(folder));
        } // gone before its first check finished and without closing: as after a crash
        MainWindow next;
        next.reopenLastProject();
        QVERIFY(!next.session().project());
        QVERIFY2(next.statusText().contains(folder + " was not reopened"),
                 qPrintable(next.statusText()));
        QVERIFY(next.log().toPlainText().contains(folder + " was not reopened"));
        // Opened and checked, it is reopened again.
        QSignalSpy validated(&next.session(), &EditorSession::validated);
        QVERIFY(next.openProject(folder));
        QVERIFY(validated.wait(30000));
        MainWindow after;
        after.reopenLastProject();
        QVERIFY(after.session().project());
        QCOMPARE(QDir::cleanPath(QString::fromStdString(after.session().project()->folder())),
                 folder);
    }

    void referenceErrorsShowInTheReferenceEditor()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 0);
        CodeEditor* reference = w.session().editor(Document::Reference);
        const QString good = reference->text();
        validated.clear();
        reference->setText(QString(good).replace(QStringLiteral("torch.softmax("),
                                                 QStringLiteral("torch.sofmax(")));
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 1);
        const int line = lineOf(good, QStringLiteral("torch.softmax("));
        QCOMPARE(w.problems().index(0, 0).data(ProblemsModel::LineRole).toInt(), line);
        QCOMPARE(reference->markedLines(), QList<int>{line - 1});
        QVERIFY(w.session().editor(Document::Description)->markedLines().isEmpty());
        validated.clear();
        reference->setText(good);
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 0);
    }

    // With no project the window shows the welcome page; a sample opens from it.
    void welcomePageOpensSamples()
    {
        MainWindow w;
        w.show(); // the page reads its lists when shown
        QVERIFY(w.showsWelcome());
        QListWidget& samples = w.welcomePage().samples();
        QStringList names;
        for (int row = 0; row < samples.count(); ++row)
            names << samples.item(row)->text().section(QStringLiteral(" — "), 0, 0);
        for (const char* sample : {"matmul_bias", "scale_gelu", "softmax"})
            QVERIFY2(names.contains(QLatin1String(sample)), qPrintable(names.join(',')));
        QTemporaryDir dir;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QVERIFY(!w.showsWelcome());
        w.welcomePage().refresh();
        QCOMPARE(w.welcomePage().recent().item(0)->data(Qt::UserRole).toString(),
                 QFileInfo(dir.path()).absoluteFilePath());
        QVERIFY(w.welcomePage().recent().item(0)->text().startsWith(QStringLiteral("softmax")));
    }

    // Completion words are prepared on a thread: an editor closed at once must not crash.
    void editorsCloseWhilePreparingCompletion()
    {
        for (int k = 0; k < 40; ++k) {
            auto editor = std::make_unique<CodeEditor>(k % 2 ? CodeEditor::Language::Json
                                                             : CodeEditor::Language::Python);
            editor->setText(QStringLiteral("x"));
        }
    }

    // Hover help: pypto functions and dtypes in the kernel, op.json keys and rule functions.
    void hoverHelp()
    {
        CodeEditor python(CodeEditor::Language::Python);
        python.setText(
            QStringLiteral("import pypto\ny = pypto.matmul(a, b, pypto.DT_FP32)\nexp = 1\n"));
        auto at = [](CodeEditor& editor, int line, int index) {
            return editor.helpAt(editor.positionFromLineIndex(line, index));
        };
        QVERIFY2(
            at(python, 1, 12)
                .startsWith(QStringLiteral("pypto.matmul(input, mat2, out_dtype, *, a_trans=")),
            qPrintable(at(python, 1, 12)));
        QVERIFY(at(python, 1, 12).contains(QStringLiteral("fp32")));
        QVERIFY(at(python, 1, 35).contains(QStringLiteral("float32")));
        QVERIFY(at(python, 2, 1).isEmpty());  // a local name, not pypto's
        QVERIFY(at(python, 1, 18).isEmpty()); // an argument
        CodeEditor json(CodeEditor::Language::Json);
        json.setText(QStringLiteral("{ \"dtypes\": [\"float16\"], \"shape\": \"broadcast(a.shape, "
                                    "b.shape)\", \"zzz\": 1 }"));
        QVERIFY(json.helpAt(4).contains(QStringLiteral("dtypes an input accepts")));
        QVERIFY(json.helpAt(16).contains(QStringLiteral("2 bytes")));
        QVERIFY(json.helpAt(40).contains(QStringLiteral("NumPy broadcast")));
        QVERIFY(json.helpAt(json.text().indexOf(QStringLiteral("zzz")) + 1).isEmpty());
        QVERIFY(json.helpAt(-1).isEmpty() && json.helpAt(100000).isEmpty());
    }

    void invalidJsonWhileTyping()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy validated(&w.session(), &EditorSession::validated);
        QVERIFY(w.openProject(copySample(dir, "scale_gelu")));
        QVERIFY(validated.wait(30000));
        CodeEditor* description = w.session().editor(Document::Description);
        validated.clear();
        description->setText(description->text().left(40)); // truncated mid-file, as while typing
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 1);
        QCOMPARE(w.problems().index(0, 0).data(ProblemsModel::CodeRole).toString(),
                 QStringLiteral("json.syntax"));
    }

private:
    int m_trustAsks = 0;
    bool m_trustAnswer = true;
};

QTEST_MAIN(TestApp)
#include "tst_app.moc"
