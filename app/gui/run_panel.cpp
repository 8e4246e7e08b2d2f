#include "run_panel.h"

#include "run/run_folder.h"
#include "tensor_diff_panel.h"
#include "trusted_folders.h"
#include "verification_model.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>

namespace ptowb {

RunPanel::RunPanel(QMainWindow* window, EditorSession& session)
    : QObject(window), m_window(window), m_session(session)
{
    m_model = new VerificationModel(this);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("runCompareView"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* runDock = new QDockWidget(tr("Run and Compare"),
                                    window); // no "&": dock tabs would read it as a mnemonic
    runDock->setObjectName(QStringLiteral("runCompareDock"));
    runDock->setWidget(m_table);
    window->addDockWidget(Qt::BottomDockWidgetArea, runDock);

    m_diff = new TensorDiffPanel;
    auto* diffDock = new QDockWidget(tr("Tensor diff"), window);
    diffDock->setObjectName(QStringLiteral("tensorDiffDock"));
    diffDock->setWidget(m_diff);
    window->addDockWidget(Qt::BottomDockWidgetArea, diffDock);
    connect(m_diff, &TensorDiffPanel::outputShown, this, [this](const QString& error) {
        if (!error.isEmpty()) m_status->setText(error);
    });
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex& index) { showRow(index.row()); });
    connect(m_table, &QTableView::activated, this,
            [this](const QModelIndex& index) { showRow(index.row()); });

    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    auto* logDock = new QDockWidget(tr("Log"), window);
    logDock->setObjectName(QStringLiteral("logDock"));
    logDock->setWidget(m_log);
    window->addDockWidget(Qt::BottomDockWidgetArea, logDock);
    window->tabifyDockWidget(runDock, logDock);

    m_status = new QLabel;
    window->statusBar()->addWidget(m_status, 1);

    QStyle* s = window->style();
    m_generate =
        new QAction(s->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Generate"), this);
    m_generate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    m_generate->setToolTip(tr("Save, validate and regenerate the glue; the Generated glue dock "
                              "shows what changed (Ctrl+G)"));
    connect(m_generate, &QAction::triggered, this, &RunPanel::generate);
    m_export = new QAction(s->standardIcon(QStyle::SP_DriveHDIcon), tr("&Export"), this);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(
        tr("Save, validate, generate, verify and export the op package and its archive (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, &RunPanel::exportPackage);
    m_verify = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Verify"), this);
    m_verify->setShortcut(Qt::Key_F5);
    m_verify->setToolTip(tr("Save, then run the reference and the kernel in the simulator on every "
                            "case and compare (F5)"));
    connect(m_verify, &QAction::triggered, this, &RunPanel::verify);
    m_redeploy = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("&Redeploy"), this);
    m_redeploy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_redeploy->setToolTip(tr("Save, validate, generate, verify, export and deploy; unchanged "
                              "steps are skipped (Ctrl+R)"));
    connect(m_redeploy, &QAction::triggered, this, &RunPanel::redeploy);
    m_cancel = new QAction(s->standardIcon(QStyle::SP_BrowserStop), tr("&Cancel"), this);
    m_cancel->setShortcut(Qt::Key_Escape);
    m_cancel->setEnabled(false);
    connect(m_cancel, &QAction::triggered, &m_runner, &PipelineRunner::cancel);

    connect(&m_runner, &PipelineRunner::progress, this,
            [this](const QString& step, const QString& message) {
                m_status->setText(tr("%1: %2: %3…").arg(m_what, step, message));
                m_log->appendPlainText(step + QStringLiteral(": ") + message);
            });
    connect(&m_runner, &PipelineRunner::finished, this, &RunPanel::onFinished);
}

void RunPanel::showRow(int row)
{
    const VerificationReport& report = m_model->report();
    const auto [caseIndex, outputIndex] = m_model->rowAt(row);
    if (outputIndex < 0) return;
    const CaseVerification& c = report.cases[std::size_t(caseIndex)];
    const OutputCheck& check = c.outputs[std::size_t(outputIndex)];
    auto path = [&](const std::string& runDir) {
        return QString::fromStdString(runfolder::caseDir(runDir, c.caseName) + "/outputs/" +
                                      check.name + ".npy");
    };
    m_diff->showOutput(
        QStringLiteral("%1 / %2: %3 vs %4")
            .arg(QString::fromStdString(c.caseName), QString::fromStdString(check.name),
                 QString::fromStdString(report.target), QString::fromStdString(report.reference)),
        path(report.targetRunDir), path(report.referenceRunDir), check.comparison.worst);
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (dock->objectName() == QLatin1String("tensorDiffDock")) dock->raise();
}

void RunPanel::generate()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Generate;
    start(options, tr("Generate"));
}

void RunPanel::verify()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Verify;
    options.sim.capture = true; // the kernel editor shows each line's value from this run
    start(options, tr("Verify"));
}

void RunPanel::exportPackage()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Export;
    start(options, tr("Export"));
}

void RunPanel::redeploy()
{
    start({}, tr("Redeploy"));
}

void RunPanel::start(PipelineOptions options, const QString& what)
{
    if (!m_session.project() || m_runner.isRunning()) return;
    // Generating runs nothing; every later step runs the project's Python.
    if (options.stopAfter != PipelineStep::Generate &&
        !TrustedFolders::ensureTrusted(m_session.project()->folder())) {
        m_log->appendPlainText(tr("== %1 not run: %2 is not a trusted folder")
                                   .arg(what, m_session.project()->folder()));
        return;
    }
    QString error;
    if (!m_session.saveAll(error)) {
        QMessageBox::warning(m_window, tr("Save failed"), error);
        return;
    }
    m_what = what;
    m_log->appendPlainText(QStringLiteral("== %1 %2").arg(what, m_session.project()->folder()));
    if (m_runner.start(*m_session.project(), options)) {
        for (QAction* action : {m_generate, m_verify, m_export, m_redeploy})
            action->setEnabled(false);
        m_cancel->setEnabled(true);
    }
}

void RunPanel::onFinished(const PipelineResult& result)
{
    for (QAction* action : {m_generate, m_verify, m_export, m_redeploy})
        action->setEnabled(true);
    m_cancel->setEnabled(false);
    static const char* const kStatus[] = {"done", "unchanged", "FAILED", "cancelled", "not run"};
    Diagnostics diagnostics;
    bool verified = false;
    for (const StepResult& step : result.steps) {
        m_log->appendPlainText(QStringLiteral("%1: %2 (%3 s) %4")
                                   .arg(QString::fromLatin1(stepName(step.step)),
                                        QString::fromLatin1(kStatus[int(step.status)]))
                                   .arg(step.seconds, 0, 'f', 2)
                                   .arg(QString::fromStdString(step.message)));
        diagnostics.insert(diagnostics.end(), step.diagnostics.begin(), step.diagnostics.end());
        verified =
            verified || (step.step == PipelineStep::Verify && !result.verification.cases.empty());
    }
    if (verified) {
        m_model->setReport(result.verification);
        if (auto* dock = qobject_cast<QDockWidget*>(m_table->parentWidget())) dock->raise();
        for (int row = 0; row < m_model->rowCount(); ++row) // open the first failure
            if (!m_model->index(row, 0).data(VerificationModel::PassRole).toBool()) {
                m_table->selectRow(row);
                showRow(row);
                break;
            }
    }
    if (hasErrors(diagnostics)) emit diagnosticsFound(diagnostics);
    if (!result.tracePath.isEmpty())
        emit simulated(result.tracePath, QFileInfo(result.tracePath).absolutePath());
    else if (verified)
        emit simulated({},
                       {}); // verified on a runner: no estimate, and the last one no longer applies
    const StepResult* last = result.steps.empty() ? nullptr : &result.steps.back();
    QString summary =
        result.ok() ? tr("%1 succeeded").arg(m_what)
                    : tr("%1 stopped at %2: %3")
                          .arg(m_what, last ? QString::fromLatin1(stepName(last->step)) : QString(),
                               last ? QString::fromStdString(last->message) : QString());
    if (result.ok() && last && last->step == PipelineStep::Deploy &&
        last->status == StepResult::Status::NotRun)
        summary = tr("%1: exported, nothing deployed — %2")
                      .arg(m_what, QString::fromStdString(last->message));
    if (verified)
        summary += tr(" — %1 of %2 outputs fail").arg(m_model->failures()).arg(m_model->rowCount());
    m_status->setText(summary);
    m_log->appendPlainText(summary);
    emit finished(result);
}

} // namespace ptowb
