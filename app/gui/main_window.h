#pragma once

#include "editor_session.h"

#include <QMainWindow>
#include <QMessageBox>
#include <functional>

class QFileSystemModel;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QTreeView;

namespace ptowb {

class CostTracePanel;
class GeneratedGluePanel;
class ProblemsModel;
class RunPanel;
class WelcomePage;

// The workbench window: kernel and op description side by side, project tree, Problems.
// Wiring only — the session and core do the work.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    bool openProject(const QString& folderOrFile);
    // File ▸ New Operator: the wizard, then its project opens.
    void newOperator();

    EditorSession& session() { return m_session; }
    ProblemsModel& problems() { return *m_problems; }
    QTreeView& problemsView() { return *m_problemsView; }
    RunPanel& runPanel() { return *m_runPanel; }
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
    void createRunDocks();
    void createActions();
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
    void showSimulation(const QString& tracePath, const QString& caseDir);

    EditorSession m_session;
    ProblemsModel* m_problems = nullptr;
    QTreeView* m_problemsView = nullptr;
    QTreeView* m_projectView = nullptr;
    QFileSystemModel* m_files = nullptr;
    QStackedWidget* m_central = nullptr;
    WelcomePage* m_welcome = nullptr;
    GeneratedGluePanel* m_gluePanel = nullptr;
    CostTracePanel* m_costPanel = nullptr;
    QTabWidget* m_sourceTabs = nullptr;
    QTabWidget* m_descriptionTabs = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_problemCount = nullptr;
    QLabel* m_cursorPosition = nullptr;
    UnsavedChangesPrompt m_prompt;
    RunPanel* m_runPanel = nullptr;
};

} // namespace ptowb
