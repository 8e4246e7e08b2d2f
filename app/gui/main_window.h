#pragma once

#include "editor_session.h"

#include <QMainWindow>
#include <QMessageBox>
#include <functional>

class QFileSystemModel;
class QDockWidget;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QStackedWidget;
class QTabWidget;
class QTreeView;

namespace ptowb {

class CostTracePanel;
class GeneratedGluePanel;
class ProblemsModel;
class RunComparePanel;
class RunController;
class TensorDiffPanel;
class VerifyTargetBox;
class WelcomePage;

// The workbench window: kernel and op description side by side, project tree, Problems.
// Wiring only — the session and core do the work.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    bool openProject(const QString& folderOrFile);
    // At start: the most recent project, unless the app stopped while opening it last time
    // (then the status bar and the Log say so).
    void reopenLastProject();
    // Opens the author's copy of a shipped sample in the sample-copies folder (made on first use).
    bool openSample(const QString& sampleFolder);
    // A project named on the command line: a shipped sample opens as the author's copy, so
    // nothing is written into the workbench's own files.
    bool openFromCommandLine(const QString& folderOrFile);
    static QString sampleCopiesFolder(); // settings "samples/folder", else Documents/PTO Workbench
    // File ▸ Close Project: asks about unsaved changes, then the welcome page.
    bool closeProject();
    // File ▸ New Operator: the wizard, then its project opens.
    void newOperator();
    void importKernel();

    EditorSession& session() { return m_session; }
    ProblemsModel& problems() { return *m_problems; }
    QTreeView& problemsView() { return *m_problemsView; }
    RunController& runs() { return *m_runs; }
    VerifyTargetBox& verifyTarget() { return *m_verifyTarget; }
    RunComparePanel& comparePanel() { return *m_comparePanel; }
    TensorDiffPanel& diffPanel() { return *m_diffPanel; }
    QPlainTextEdit& log() { return *m_log; }
    QString statusText() const;
    GeneratedGluePanel& gluePanel() { return *m_gluePanel; }
    CostTracePanel& costPanel() { return *m_costPanel; }
    WelcomePage& welcomePage() { return *m_welcome; }
    bool showsWelcome() const;
    // Settings ▸ runners, deploy targets, default tolerances.
    void showSettings();

    // Asked when unsaved changes would be lost; tests replace the dialog.
    using UnsavedChangesPrompt = std::function<QMessageBox::StandardButton(QWidget*)>;
    void setUnsavedChangesPrompt(UnsavedChangesPrompt prompt) { m_prompt = std::move(prompt); }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createEditors();
    void createDocks();
    void connectRuns();
    void createActions();
    void showWelcome(bool shown);
    void forgetResults();
    void refreshVerifyTargets(); // the project's runners, the interpreter chosen in Settings
    // True, and says why in the status bar, while a run is in progress.
    bool refuseWhileRunning(const QString& what);
    void rebuildRecentMenu();
    bool confirmDiscard();
    void chooseProject();
    void saveAll();
    void showDiagnostics(const Diagnostics& diagnostics);
    void jumpTo(const QString& file, int line, int col);
    void updateTitle();
    void restoreLayout();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& objectName,
                         Qt::DockWidgetArea area);
    void showSimulation(const QString& tracePath, const QString& caseDir, const QString& caseName,
                        const QString& stamp);

    EditorSession m_session;
    ProblemsModel* m_problems = nullptr;
    QTreeView* m_problemsView = nullptr;
    QTreeView* m_projectView = nullptr;
    QFileSystemModel* m_files = nullptr;
    QStackedWidget* m_central = nullptr;
    WelcomePage* m_welcome = nullptr;
    GeneratedGluePanel* m_gluePanel = nullptr;
    CostTracePanel* m_costPanel = nullptr;
    RunComparePanel* m_comparePanel = nullptr;
    TensorDiffPanel* m_diffPanel = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QLabel* m_status = nullptr;
    QByteArray m_dockState; // the docks as they were before the welcome page hid them
    QTabWidget* m_sourceTabs = nullptr;
    QTabWidget* m_descriptionTabs = nullptr;
    QMenu* m_recentMenu = nullptr;
    QList<QAction*> m_projectActions; // enabled while a project is open
    QLabel* m_problemCount = nullptr;
    QLabel* m_cursorPosition = nullptr;
    UnsavedChangesPrompt m_prompt;
    RunController* m_runs = nullptr;
    VerifyTargetBox* m_verifyTarget = nullptr;
    bool m_opening = false; // a project opened, its first check not finished
};

} // namespace ptowb
