#pragma once

#include "editor_session.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>

class QFileSystemModel;
class QLabel;
class QMenu;
class QTabWidget;
class QTreeView;

namespace ptowb {

class ProblemsModel;
class RunPanel;

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

    // Asked when unsaved changes would be lost; tests replace the dialog.
    using UnsavedChangesPrompt = std::function<QMessageBox::StandardButton(QWidget*)>;
    void setUnsavedChangesPrompt(UnsavedChangesPrompt prompt) { m_prompt = std::move(prompt); }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createEditors();
    void createDocks();
    void createActions();
    void rebuildRecentMenu();
    bool confirmDiscard();
    void chooseProject();
    void saveAll();
    void showDiagnostics(const Diagnostics& diagnostics);
    void jumpTo(const QString& file, int line, int col);
    void updateTitle();
    void restoreLayout();

    EditorSession m_session;
    ProblemsModel* m_problems = nullptr;
    QTreeView* m_problemsView = nullptr;
    QTreeView* m_projectView = nullptr;
    QFileSystemModel* m_files = nullptr;
    QTabWidget* m_sourceTabs = nullptr;
    QTabWidget* m_descriptionTabs = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_problemCount = nullptr;
    QLabel* m_cursorPosition = nullptr;
    UnsavedChangesPrompt m_prompt;
    RunPanel* m_runPanel = nullptr;
};

} // namespace ptowb
