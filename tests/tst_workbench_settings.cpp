// The workbench's New Operator wizard and Settings, offscreen: the wizard's projects verify
// clean, a runners.json with errors is not saved (a valid one changes the verdict), and Settings ▸
// Python interpreter says what the chosen interpreter has.
#include "app_test_support.h"
#include "code_editor.h"
#include "main_window.h"
#include "new_operator_wizard.h"
#include "problems_model.h"
#include "python_settings_page.h"
#include "run_compare_panel.h"
#include "run_controller.h"
#include "settings_dialog.h"
#include "trusted_folders.h"
#include "verification_model.h"

#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::testing;
using Document = EditorSession::Document;

class TestWorkbenchSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ptowb-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_workbench_settings"));
        // Projects live in temporary folders: the tests trust them.
        TrustedFolders::prompt() = [](const QString&, const QString&) { return true; };
    }

    // The New Operator wizard's project opens, validates and verifies clean against the simulator.
    void wizardProjectVerifiesClean_data()
    {
        QTest::addColumn<QString>("templateName");
        for (const char* name : {"elementwise", "reduction", "matmul"})
            QTest::newRow(name) << QString::fromLatin1(name);
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
        QVERIFY(validated.wait(30000));
        QCOMPARE(w.problems().rowCount(), 0);
        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        w.runs().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(w.runs().runner().lastResult().ok(), qPrintable(w.log().toPlainText()));
        QCOMPARE(w.comparePanel().model().failures(), 0);
        QCOMPARE(w.comparePanel().model().rowCount(), 2);
    }

    // Settings: a runners.json with errors is not saved and its text stays; a valid one and the
    // default tolerances are written, and Verify judges with them.
    void settingsSaveCheckedFiles()
    {
        QFile::remove(QString::fromStdString(userConfigFile("runners.json")));
        QFile::remove(QString::fromStdString(userConfigFile("tolerances.json")));
        {
            SettingsDialog settings;
            settings.runnersEditor().setText(QStringLiteral(
                "{ \"runners\": [ { \"name\": \"phone\", \"timeout_s\": \"soon\" } ] }"));
            QVERIFY2(settings.problemsText(0).contains(QStringLiteral("1:")),
                     qPrintable(settings.problemsText(0)));
            QVERIFY(!settings.runnersEditor().markedLines().isEmpty());
            QVERIFY(settings.save().contains(QStringLiteral("runners.json has errors")));
            QVERIFY(!QFile::exists(QString::fromStdString(userConfigFile("runners.json"))));
            QVERIFY(settings.runnersEditor().text().contains(QStringLiteral("soon")));
            const QString good = QStringLiteral(
                "{ \"name\": \"phone\", \"command\": [\"run_op\", \"{run_dir}\"] }\n");
            settings.runnersEditor().setText(good);
            QCOMPARE(settings.problemsText(0), QStringLiteral("No problems."));
            const int row = [&] {
                for (int r = 0; r < settings.toleranceTable().rowCount(); ++r)
                    if (settings.toleranceTable().verticalHeaderItem(r)->text() ==
                        QLatin1String("float16"))
                        return r;
                return -1;
            }();
            QVERIFY(row >= 0);
            settings.toleranceTable().item(row, 0)->setText(QStringLiteral("0"));
            settings.toleranceTable().item(row, 1)->setText(QStringLiteral("1e-9"));
            settings.minCosineEdit().setText(QStringLiteral("1"));
            QCOMPARE(settings.save(), QString());
            QCOMPARE(readFile(QString::fromStdString(userConfigFile("runners.json"))),
                     good.toUtf8());
            QVERIFY(readFile(QString::fromStdString(userConfigFile("tolerances.json")))
                        .contains("\"float16\""));
        }
        {
            SettingsDialog again; // reads back what was saved
            QCOMPARE(again.toleranceTable().item(0, 0)->text().isEmpty(), true);
            bool found = false;
            for (int r = 0; r < again.toleranceTable().rowCount(); ++r)
                found =
                    found || again.toleranceTable().item(r, 1)->text() == QLatin1String("1e-09");
            QVERIFY(found);
        }
        // softmax's tolerance names the cosine criterion but no threshold: the user's default
        // applies.
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        w.runs().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        const VerificationReport& report = w.comparePanel().model().report();
        bool tightRule = false;
        for (const auto& c : report.cases)
            for (const auto& o : c.outputs)
                tightRule = tightRule || o.verdict.rule.find("cosine >= 1") != std::string::npos;
        QVERIFY2(tightRule, qPrintable(w.log().toPlainText()));
        QFile::remove(QString::fromStdString(userConfigFile("runners.json")));
        QFile::remove(QString::fromStdString(userConfigFile("tolerances.json")));
    }

    // Settings ▸ Python interpreter: says what the chosen interpreter has, or why kernels cannot
    // run in it; once saved, Verify runs in it, and an unusable one is one message with the fix
    // in the Log, with nothing run.
    void pythonInterpreterSetting()
    {
        QTemporaryDir dir;
        {
            SettingsDialog settings;
            PythonSettingsPage& page = settings.pythonPage();
            page.pathEdit().setText(dir.filePath(QStringLiteral("nowhere/python3")));
            QTRY_VERIFY_WITH_TIMEOUT(
                page.statusLabel().text().contains(QStringLiteral("does not exist")), 30000);
            page.pathEdit().setText(QStringLiteral("/usr/bin/python3"));
            QTRY_VERIFY_WITH_TIMEOUT(page.statusLabel().text().contains(QStringLiteral("torch 1.")),
                                     30000);
            page.pathEdit().setText(dir.filePath(QStringLiteral("nowhere/python3")));
            QCOMPARE(settings.save(), QString());
        }
        QCOMPARE(PythonSettingsPage::chosenInterpreter(),
                 dir.filePath(QStringLiteral("nowhere/python3")));
        MainWindow w;
        QVERIFY(w.openProject(copySample(dir, "softmax")));
        QSignalSpy finished(&w.runs().runner(), &PipelineRunner::finished);
        w.runs().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY(!w.runs().runner().lastResult().ok());
        QVERIFY2(
            w.log().toPlainText().contains(QStringLiteral("does not exist")) &&
                w.log().toPlainText().contains(QStringLiteral("Settings ▸ Python interpreter")),
            qPrintable(w.log().toPlainText()));
        QVERIFY(!w.log().toPlainText().contains(QStringLiteral("Traceback")));
        {
            SettingsDialog settings;
            settings.pythonPage().pathEdit().setText(QString());
            QCOMPARE(settings.save(), QString());
        }
        w.runs().verifyAction()->trigger();
        QVERIFY(finished.wait(60000));
        QVERIFY2(w.runs().runner().lastResult().ok(), qPrintable(w.log().toPlainText()));
        QVERIFY2(w.log().toPlainText().contains(QStringLiteral("in Python 3")),
                 qPrintable(w.log().toPlainText()));
    }
};

QTEST_MAIN(TestWorkbenchSettings)
#include "tst_workbench_settings.moc"
