#include "main_window.h"

#include "code_editor.h"
#include "command_palette.h"
#include "cost_comparison_view.h"
#include "cost_trace_panel.h"
#include "generated_glue_panel.h"
#include "line_cost_model.h"
#include "problems_model.h"
#include "recent_projects.h"
#include "run_compare_panel.h"
#include "run_controller.h"
#include "run_stamp_label.h"
#include "settings_dialog.h"
#include "tensor_diff_panel.h"
#include "verify_target_box.h"
#include "welcome_page.h"
#include "work_pool.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QTreeView>
#include <QUrl>

namespace ptowb {

namespace {
const QString kUnsavedMark = QStringLiteral(" •"); // on the tab of a file with unsaved edits
} // namespace

using Document = EditorSession::Document;

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    startThreadsAhead();
    m_prompt = [](QWidget* parentWidget) {
        return QMessageBox::question(parentWidget, tr("Unsaved changes"),
                                     tr("Save the changes to this project before closing it?"),
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                     QMessageBox::Save);
    };
    createEditors();
    createDocks();
    connectRuns();
    createActions();
    connect(&m_session, &EditorSession::validated, this, &MainWindow::showDiagnostics);
    connect(&m_session, &EditorSession::validated, this, [this] {
        if (m_opening) RecentProjects::clearOpening();
        m_opening = false;
    });
    connect(&m_session, &EditorSession::modificationChanged, this, &MainWindow::updateTitle);
    restoreLayout();
    m_central->setCurrentIndex(1);
    showWelcome(true); // until a project opens
    updateTitle();
}

void MainWindow::createEditors()
{
    m_sourceTabs = new QTabWidget;
    m_sourceTabs->setObjectName(QStringLiteral("sourceTabs"));
    m_sourceTabs->addTab(m_session.editor(Document::Kernel), QStringLiteral("kernel.py"));
    m_sourceTabs->addTab(m_session.editor(Document::Reference), QStringLiteral("reference.py"));
    m_descriptionTabs = new QTabWidget;
    m_descriptionTabs->setObjectName(QStringLiteral("descriptionTabs"));
    m_descriptionTabs->addTab(m_session.editor(Document::Description), QStringLiteral("op.json"));

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("editorSplitter"));
    splitter->addWidget(m_sourceTabs);
    splitter->addWidget(m_descriptionTabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    m_welcome = new WelcomePage;
    connect(m_welcome, &WelcomePage::openRequested, this, [this](const QString& folder) {
        if (confirmDiscard()) openProject(folder);
    });
    connect(m_welcome, &WelcomePage::sampleRequested, this, [this](const QString& sample) {
        if (confirmDiscard()) openSample(sample);
    });
    connect(m_welcome, &WelcomePage::newOperatorRequested, this, &MainWindow::newOperator);
    connect(m_welcome, &WelcomePage::openDialogRequested, this, &MainWindow::chooseProject);
    m_central = new QStackedWidget;
    m_central->addWidget(m_welcome);
    m_central->addWidget(splitter);
    setCentralWidget(m_central);

    m_cursorPosition = new QLabel;
    m_problemCount = new QLabel;
    statusBar()->addPermanentWidget(m_problemCount);
    statusBar()->addPermanentWidget(m_cursorPosition);
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        connect(m_session.editor(d), &CodeEditor::cursorPositionChanged, this,
                [this](int line, int index) {
                    m_cursorPosition->setText(tr("Ln %1, Col %2").arg(line + 1).arg(index + 1));
                });
    }
}

// The run controller and what connects its results to the panels and the editors.
void MainWindow::connectRuns()
{
    m_runs = new RunController(this, m_session, *m_comparePanel, *m_diffPanel, *m_log);
    m_verifyTarget = new VerifyTargetBox(this);
    connect(m_verifyTarget, &VerifyTargetBox::targetChanged, m_runs,
            &RunController::setVerifyTarget);
    connect(m_runs, &RunController::statusChanged, m_status, &QLabel::setText);
    connect(m_runs, &RunController::panelWanted, this, [this](QWidget* panel) {
        if (auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget())) dock->raise();
    });
    connect(m_runs, &RunController::diagnosticsFound, this, [this](const Diagnostics& run) {
        showDiagnostics(m_session.showRunDiagnostics(run));
        if (auto* dock = qobject_cast<QDockWidget*>(m_problemsView->parentWidget())) dock->raise();
    });
    connect(m_runs, &RunController::verifyStarted, m_costPanel,
            [this](const QString& why) { m_costPanel->stamp().markRunning(why); });
    connect(m_runs, &RunController::simulated, this, &MainWindow::showSimulation);
    connect(m_runs, &RunController::finished, this, [this](const PipelineResult& result) {
        if (m_session.project()) m_gluePanel->reload(m_session.project()->glueFolder());
        if (result.tracePath.empty() && result.verification.cases.empty())
            m_costPanel->stamp().runEnded(); // nothing simulated: what it showed still holds
        // A target without values (pypto-sim) measured: its news is in Cost/trace.
        if (!result.verification.cases.empty() && result.verification.cases.front().costOnly)
            if (auto* dock = qobject_cast<QDockWidget*>(m_costPanel->parentWidget())) dock->raise();
    });
    connect(m_costPanel, &CostTracePanel::runShown, this, [this] {
        if (m_runs->editedSinceRunStarted())
            m_costPanel->markStale(tr("the files were edited while this run went on"));
        std::vector<std::pair<int, QString>> notes;
        for (const auto& [line, us] : m_costPanel->costs().report().perLine())
            notes.push_back({line, formatMicroseconds(us)});
        m_session.editor(Document::Kernel)->setLineNotes(notes);
    });
    connect(&m_costPanel->comparison(), &CostComparisonView::openRequested, this,
            [](const QString& path) { QDesktopServices::openUrl(QUrl::fromLocalFile(path)); });
    connect(m_costPanel, &CostTracePanel::lineActivated, this,
            [this](int line) { jumpTo(m_session.path(Document::Kernel), line, 1); });
    connect(m_session.editor(Document::Kernel), &CodeEditor::cursorPositionChanged, m_costPanel,
            [this](int line) { m_costPanel->showLine(line + 1); });
    // An edit makes every result describe other files: the kernel's lines may have moved too.
    connect(m_runs, &RunController::edited, m_costPanel, &CostTracePanel::markStale);
    connect(
        &m_session, &EditorSession::diskChanged, this, [this](const QString& path, bool reloaded) {
            statusBar()->showMessage(reloaded
                                         ? tr("Reloaded %1: it changed on disk").arg(path)
                                         : tr("%1 changed on disk; kept the edited text").arg(path),
                                     8000);
        });
}

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& objectName,
                                 Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::showSimulation(const QString& tracePath, const QString& caseDir,
                                const QString& caseName, const QString& stamp)
{
    CodeEditor* kernel = m_session.editor(Document::Kernel);
    const QString pypto =
        m_session.project() && !caseName.isEmpty()
            ? QString::fromStdString(runfolder::latestCaseDir(m_session.project()->runsFolder(),
                                                              "pypto-sim", caseName.toStdString()))
            : QString();
    m_costPanel->showRun(tracePath, caseDir, kernel->text().split(QLatin1Char('\n')), stamp, pypto);
    int line = 0, index = 0;
    kernel->getCursorPosition(&line, &index);
    m_costPanel->showLine(line + 1);
}

bool MainWindow::showsWelcome() const
{
    return m_central->currentWidget() == m_welcome;
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

// The docks hold a project's work: under the welcome page they would be empty and take its room.
void MainWindow::showWelcome(bool shown)
{
    if (shown == showsWelcome()) return;
    if (shown) {
        m_dockState = saveState();
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            dock->hide();
        m_central->setCurrentWidget(m_welcome);
    } else {
        m_central->setCurrentIndex(1);
        if (!m_dockState.isEmpty()) restoreState(m_dockState);
        m_dockState.clear();
    }
}

void MainWindow::showSettings()
{
    SettingsDialog dialog(this);
    dialog.exec();
    refreshVerifyTargets(); // the interpreter or the runners may have changed
}

// Every dock of the window, in one place: the project tree, Problems, and the panels of a run.
void MainWindow::createDocks()
{
    m_files = new QFileSystemModel(this);
    m_files->setReadOnly(true);
    m_projectView = new QTreeView;
    m_projectView->setModel(m_files);
    m_projectView->setHeaderHidden(true);
    for (int c = 1; c < m_files->columnCount(); ++c)
        m_projectView->hideColumn(c);
    addDock(m_projectView, tr("Project"), QStringLiteral("projectDock"), Qt::LeftDockWidgetArea);
    connect(m_projectView, &QTreeView::activated, this,
            [this](const QModelIndex& index) { jumpTo(m_files->filePath(index), 0, 0); });

    m_problems = new ProblemsModel(this);
    m_problemsView = new QTreeView;
    m_problemsView->setObjectName(QStringLiteral("problemsView"));
    m_problemsView->setModel(m_problems);
    m_problemsView->setRootIsDecorated(false);
    m_problemsView->setAlternatingRowColors(true);
    m_problemsView->setUniformRowHeights(true);
    m_problemsView->header()->setStretchLastSection(false);
    m_problemsView->header()->setSectionResizeMode(ProblemsModel::MessageColumn,
                                                   QHeaderView::Stretch);
    m_problemsView->header()->setSectionResizeMode(ProblemsModel::SeverityColumn,
                                                   QHeaderView::ResizeToContents);
    m_problemsView->header()->setSectionResizeMode(ProblemsModel::LocationColumn,
                                                   QHeaderView::ResizeToContents);
    QDockWidget* problemsDock = addDock(m_problemsView, tr("Problems"),
                                        QStringLiteral("problemsDock"), Qt::BottomDockWidgetArea);
    connect(m_problemsView, &QTreeView::activated, this, [this](const QModelIndex& index) {
        jumpTo(index.data(ProblemsModel::FileRole).toString(),
               index.data(ProblemsModel::LineRole).toInt(),
               index.data(ProblemsModel::ColumnRole).toInt());
    });

    // What a run produced. No "&" in the titles: dock tabs would read it as a mnemonic.
    m_comparePanel = new RunComparePanel;
    QDockWidget* compareDock = addDock(m_comparePanel, tr("Run and Compare"),
                                       QStringLiteral("runCompareDock"), Qt::BottomDockWidgetArea);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    // Problems, Run and Compare and the Log share a pane: each list gets the width it needs.
    tabifyDockWidget(problemsDock, compareDock);
    tabifyDockWidget(compareDock, addDock(m_log, tr("Log"), QStringLiteral("logDock"),
                                          Qt::BottomDockWidgetArea));
    compareDock->raise();
    m_diffPanel = new TensorDiffPanel;
    QDockWidget* diffDock = addDock(m_diffPanel, tr("Tensor diff"),
                                    QStringLiteral("tensorDiffDock"), Qt::BottomDockWidgetArea);
    m_costPanel = new CostTracePanel;
    tabifyDockWidget(diffDock, addDock(m_costPanel, tr("Cost/trace"),
                                       QStringLiteral("costTraceDock"), Qt::BottomDockWidgetArea));
    m_gluePanel = new GeneratedGluePanel;
    tabifyDockWidget(diffDock,
                     addDock(m_gluePanel, tr("Generated glue"), QStringLiteral("generatedGlueDock"),
                             Qt::BottomDockWidgetArea));
    diffDock->raise();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("runStatus"));
    statusBar()->addWidget(m_status, 1);
}

void MainWindow::createActions()
{
    QStyle* s = style();
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(s->standardIcon(QStyle::SP_DirOpenIcon), tr("&Open Project…"),
                                    this, &MainWindow::chooseProject);
    open->setShortcut(QKeySequence::Open);
    QAction* newOp = file->addAction(s->standardIcon(QStyle::SP_FileIcon), tr("&New Operator…"),
                                     this, &MainWindow::newOperator);
    newOp->setShortcut(QKeySequence::New);
    QAction* importKernel = file->addAction(tr("&Import Kernel…"), this, &MainWindow::importKernel);
    importKernel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    QAction* close = file->addAction(tr("&Close Project"), this, &MainWindow::closeProject);
    close->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F4));
    file->addSeparator();
    QAction* save = file->addAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this,
                                    &MainWindow::saveAll);
    save->setShortcut(QKeySequence::Save);
    save->setToolTip(tr("Save all changed files (Ctrl+S)"));
    file->addSeparator();
    QAction* settings = file->addAction(tr("Se&ttings…"), this, &MainWindow::showSettings);
    settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->setToolTip(tr("Runners, deploy targets and default tolerances (Ctrl+,)"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(
        QKeySequence(Qt::CTRL | Qt::Key_Q)); // QKeySequence::Quit is empty on some platforms

    QMenu* build = menuBar()->addMenu(tr("&Operator"));
    QAction* validate = build->addAction(s->standardIcon(QStyle::SP_DialogApplyButton),
                                         tr("&Validate"), &m_session, &EditorSession::validateNow);
    validate->setShortcut(Qt::Key_F7);
    validate->setToolTip(tr("Check op.json, its rules and the files it names (F7)"));
    m_projectActions = {close, save, validate};
    build->addAction(m_runs->generateAction());
    build->addSeparator();
    build->addAction(m_runs->verifyAction());
    build->addAction(m_runs->exportAction());
    build->addAction(m_runs->redeployAction());
    build->addAction(m_runs->cancelAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* palette = new CommandPalette(this);
    QAction* commands = view->addAction(tr("Command &Palette…"), palette, &CommandPalette::open);
    commands->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    QAction* welcome = view->addAction(tr("&Welcome Page"), this, [this] {
        showWelcome(!showsWelcome() || !m_session.project());
    });
    welcome->setToolTip(tr("Show the welcome page, or go back to the project (Ctrl+Shift+W)"));
    welcome->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    view->addSeparator();
    // Alt+1... toggles the docks, in the order they were created.
    int dockKey = Qt::Key_1;
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        QAction* toggle = dock->toggleViewAction();
        if (dockKey <= Qt::Key_9) toggle->setShortcut(QKeySequence(Qt::ALT | Qt::Key(dockKey++)));
        view->addAction(toggle);
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About PTO Workbench"), this, [this] {
        QMessageBox::about(
            this, tr("About PTO Workbench"),
            tr("<b>PTO Workbench</b><p>Describe a PyPTO kernel once in op.json; the workbench "
               "checks the "
               "description, verifies the kernel against its CPU reference in the simulator, "
               "generates the "
               "torch, ONNX and graph-compiler glue, and exports and deploys the op package.</p>"));
    });
    about->setShortcut(Qt::Key_F1);

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(open);
    bar->addAction(save);
    bar->addAction(validate);
    bar->addAction(m_runs->generateAction());
    bar->addAction(m_runs->verifyAction());
    bar->addWidget(m_verifyTarget);
    bar->addAction(m_runs->exportAction());
    bar->addAction(m_runs->redeployAction());
    bar->addAction(m_runs->cancelAction());
}

bool MainWindow::refuseWhileRunning(const QString& what)
{
    if (!m_runs->runner().isRunning()) return false;
    m_status->setText(tr("A run is in progress: cancel it (Esc) before %1").arg(what));
    return true;
}

void MainWindow::saveAll()
{
    QString error;
    if (!m_session.saveAll(error)) {
        statusBar()->showMessage(error, 10000);
        QMessageBox::warning(this, tr("Save failed"), error);
        return;
    }
    statusBar()->showMessage(tr("Saved"), 2000);
}

void MainWindow::showDiagnostics(const Diagnostics& diagnostics)
{
    m_problems->setDiagnostics(diagnostics);
    const int errors = m_problems->errorCount(), warnings = m_problems->warningCount();
    auto count = [](int n, const QString& one, const QString& many) {
        return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
    };
    m_problemCount->setText(errors + warnings == 0
                                ? tr("No problems")
                                : count(errors, tr("error"), tr("errors")) + QStringLiteral(", ") +
                                      count(warnings, tr("warning"), tr("warnings")));
}

void MainWindow::jumpTo(const QString& file, int line, int col)
{
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        if (QFileInfo(m_session.path(d)) != QFileInfo(file)) continue;
        CodeEditor* editor = m_session.editor(d);
        QTabWidget* tabs = d == Document::Description ? m_descriptionTabs : m_sourceTabs;
        tabs->setCurrentWidget(editor);
        if (line > 0)
            editor->goTo(line, col);
        else
            editor->setFocus();
        return;
    }
}

void MainWindow::updateTitle()
{
    const QString project = m_session.project()
                                ? QString::fromStdString(m_session.project()->name())
                                : tr("No project");
    setWindowTitle(QStringLiteral("%1[*] — PTO Workbench").arg(project));
    setWindowModified(m_session.isModified());
    // Nothing to save, check or run on the welcome page.
    for (QAction* action : m_projectActions)
        action->setEnabled(m_session.project().has_value());
    m_verifyTarget->setEnabled(m_session.project().has_value());
    m_runs->updateActions();
    // Each editor's tab says whether its file has unsaved edits.
    for (Document d : {Document::Description, Document::Kernel, Document::Reference}) {
        QTabWidget* tabs = d == Document::Description ? m_descriptionTabs : m_sourceTabs;
        const int index = tabs->indexOf(m_session.editor(d));
        const QString name = m_session.project() ? QFileInfo(m_session.path(d)).fileName()
                                                 : tabs->tabText(index).remove(kUnsavedMark);
        tabs->setTabText(index, m_session.editor(d)->isModified() ? name + kUnsavedMark : name);
    }
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1400, 860);
    if (restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) return;
    // First start: the editors get most of the room, the Tensor diff the widest bottom pane.
    auto* projectDock = findChild<QDockWidget*>(QStringLiteral("projectDock"));
    auto* compareDock = findChild<QDockWidget*>(QStringLiteral("runCompareDock"));
    auto* diffDock = findChild<QDockWidget*>(QStringLiteral("tensorDiffDock"));
    resizeDocks({projectDock}, {180}, Qt::Horizontal);
    resizeDocks({compareDock}, {300}, Qt::Vertical);
    resizeDocks({compareDock, diffDock}, {600, 800}, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!confirmDiscard()) {
        event->ignore();
        return;
    }
    if (m_opening) RecentProjects::clearOpening(); // closed, not crashed, while opening
    m_opening = false;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"),
                      m_dockState.isEmpty() ? saveState() : m_dockState);
    event->accept();
}

} // namespace ptowb
