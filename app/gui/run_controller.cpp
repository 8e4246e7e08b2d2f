#include "run_controller.h"

#include "code_editor.h"
#include "run_compare_panel.h"
#include "run_folder/run_folder.h"
#include "run_stamp_label.h"
#include "settings_dialog.h"
#include "tensor_diff_panel.h"
#include "trusted_folders.h"
#include "verification_model.h"
#include "worker_client/worker_client.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QPlainTextEdit>
#include <QPointer>
#include <QStyle>
#include <QWidget>
#include <utility>

namespace ptowb {

RunController::RunController(QWidget* window, EditorSession& session, RunComparePanel& compare,
                             TensorDiffPanel& diff, QPlainTextEdit& log)
    : QObject(window), m_session(session), m_compare(compare), m_diff(diff), m_log(log)
{
    connect(&m_diff, &TensorDiffPanel::outputShown, this, [this](const QString& error) {
        if (!error.isEmpty()) Q_EMIT statusChanged(error);
    });
    connect(&m_compare, &RunComparePanel::rowChosen, this, &RunController::showRow);
    for (auto d : {EditorSession::Document::Description, EditorSession::Document::Kernel,
                   EditorSession::Document::Reference})
        connect(m_session.editor(d), &QsciScintilla::textChanged, this, [this, d] {
            m_changed[std::size_t(d)] = true;
            m_editCheck.start();
        });
    m_editCheck.setSingleShot(true);
    m_editCheck.setInterval(0);
    connect(&m_editCheck, &QTimer::timeout, this, &RunController::checkEdits);

    QStyle* s = window->style();
    m_generate =
        new QAction(s->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Generate"), this);
    m_generate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    m_generate->setToolTip(tr("Save, validate and regenerate the glue; the Generated glue dock "
                              "shows what changed (Ctrl+G)"));
    connect(m_generate, &QAction::triggered, this, &RunController::generate);
    m_export = new QAction(s->standardIcon(QStyle::SP_DriveHDIcon), tr("&Export"), this);
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setToolTip(
        tr("Save, validate, generate, verify and export the op package and its archive (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, &RunController::exportPackage);
    m_verify = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Verify"), this);
    m_verify->setShortcut(Qt::Key_F5);
    m_verify->setToolTip(tr("Save, then run the reference and the kernel in the simulator on every "
                            "case and compare (F5)"));
    connect(m_verify, &QAction::triggered, this, &RunController::verify);
    m_redeploy = new QAction(s->standardIcon(QStyle::SP_BrowserReload), tr("&Redeploy"), this);
    m_redeploy->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_redeploy->setToolTip(tr("Save, validate, generate, verify, export and deploy; unchanged "
                              "steps are skipped (Ctrl+R)"));
    connect(m_redeploy, &QAction::triggered, this, &RunController::redeploy);
    m_cancel = new QAction(s->standardIcon(QStyle::SP_BrowserStop), tr("&Cancel"), this);
    m_cancel->setShortcut(Qt::Key_Escape);
    m_cancel->setEnabled(false);
    connect(m_cancel, &QAction::triggered, &m_runner, &PipelineRunner::cancel);

    connect(&m_runner, &PipelineRunner::progress, this,
            [this](const QString& step, const QString& message) {
                Q_EMIT statusChanged(tr("%1: %2: %3…").arg(m_what, step, message));
                m_log.appendPlainText(step + QStringLiteral(": ") + message);
            });
    connect(&m_runner, &PipelineRunner::stepFinished, &m_log, &QPlainTextEdit::appendPlainText);
    // Building the kernel worker for a new interpreter takes minutes, once: say so as it goes.
    worker::WorkerClient::setProgressHandler(
        [self = QPointer<RunController>(this)](const std::string& message) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, text = QString::fromStdString(message)] {
                    if (!self) return;
                    Q_EMIT self->statusChanged(text);
                    self->m_log.appendPlainText(text);
                },
                Qt::QueuedConnection);
        });
    connect(&m_runner, &PipelineRunner::finished, this, &RunController::onFinished);
}

void RunController::showRow(int row)
{
    const VerificationReport& report = m_compare.model().report();
    if (row < 0 || row >= m_compare.model().rowCount()) return;
    const auto [caseIndex, outputIndex] = m_compare.model().rowAt(row);
    const CaseVerification& c = report.cases[std::size_t(caseIndex)];
    const QString caseName = QString::fromStdString(c.caseName);
    if (const std::string unchecked = m_compare.model().uncheckedAt(row); !unchecked.empty()) {
        m_diff.showMessage(
            tr("%1 / %2: not compared").arg(caseName, QString::fromStdString(unchecked)),
            tr("op.json's case gives no expected value of %1 (null in "
               "\"expected\"): the test it was imported from checked none.")
                .arg(QString::fromStdString(unchecked)),
            m_stamp);
        Q_EMIT panelWanted(&m_diff);
        return;
    }
    if (outputIndex < 0) { // the case could not run: its error, not an old difference
        m_diff.showMessage(tr("%1: error").arg(caseName),
                           QString::fromStdString(c.error.empty() ? "no outputs" : c.error),
                           m_stamp);
        if (m_compare.stamp().isStale()) m_diff.markStale(m_compare.stamp().why());
        Q_EMIT panelWanted(&m_diff);
        return;
    }
    const OutputCheck& check = c.outputs[std::size_t(outputIndex)];
    auto path = [&](const std::string& runDir) {
        return QString::fromStdString(
            runfolder::outputPath(runfolder::caseDir(runDir, c.caseName), check.name));
    };
    QString title =
        QStringLiteral("%1 / %2: %3 vs %4")
            .arg(caseName, QString::fromStdString(check.name),
                 QString::fromStdString(report.target), QString::fromStdString(report.reference));
    // An error the same everywhere (a scale, an offset) is said first: it names the bug.
    if (const auto& uniform = check.comparison.uniformError)
        title += QStringLiteral(" — ") + QString::fromStdString(uniform->describe());
    m_diff.showOutput(title, path(report.targetRunDir), path(report.referenceRunDir),
                      check.comparison.worst, m_stamp);
    if (m_compare.stamp().isStale()) m_diff.markStale(m_compare.stamp().why());
    Q_EMIT panelWanted(&m_diff);
}

void RunController::markStale(const QString& why)
{
    m_compare.markStale(why);
    m_diff.markStale(why);
}

void RunController::reset()
{
    m_compare.reset();
    m_diff.reset();
    m_stamp.clear();
    m_shownTexts = {};
    m_changed = {};
    m_editCheck.stop();
}

RunController::Texts RunController::editorTexts() const
{
    Texts texts;
    for (int k = 0; k < EditorSession::kDocumentCount; ++k)
        texts[std::size_t(k)] = m_session.editor(EditorSession::Document(k))->text();
    return texts;
}

void RunController::checkEdits()
{
    const auto changed = std::exchange(m_changed, {});
    if (!m_session.project() || m_stamp.isEmpty()) return; // no results to go stale
    for (int k = 0; k < EditorSession::kDocumentCount; ++k) {
        const auto document = EditorSession::Document(k);
        if (!changed[std::size_t(k)] ||
            m_session.editor(document)->text() == m_shownTexts[std::size_t(k)])
            continue;
        const QString why =
            tr("%1 was edited after this run").arg(QFileInfo(m_session.path(document)).fileName());
        markStale(why);
        Q_EMIT edited(why);
        return;
    }
}

void RunController::generate()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Generate;
    start(options, tr("Generate"));
}

void RunController::setVerifyTarget(const QString& name, bool producesValues)
{
    m_against = name.isEmpty() ? QStringLiteral("sim") : name;
    m_againstProducesValues = producesValues;
}

void RunController::verify()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Verify;
    options.against = m_against.toStdString();
    options.sim.capture = true; // the kernel editor shows each line's value from this run
    start(options, tr("Verify"));
}

void RunController::exportPackage()
{
    PipelineOptions options;
    options.stopAfter = PipelineStep::Export;
    options.against = exportTarget();
    start(options, tr("Export"));
}

void RunController::redeploy()
{
    PipelineOptions options;
    options.against = exportTarget();
    start(options, tr("Redeploy"));
}

std::string RunController::exportTarget() const
{
    return m_againstProducesValues ? m_against.toStdString() : std::string("sim");
}

void RunController::start(PipelineOptions options, const QString& what)
{
    if (m_editCheck.isActive()) { // an edit just made belongs to the results shown until now
        m_editCheck.stop();
        checkEdits();
    }
    if (!m_session.project()) {
        Q_EMIT statusChanged(
            tr("%1: no project is open — open one (Ctrl+O) or create one (Ctrl+N)").arg(what));
        return;
    }
    if (m_runner.isRunning()) {
        Q_EMIT statusChanged(tr("%1: %2 is still running (Esc cancels it)").arg(what, m_what));
        return;
    }
    // Generating runs nothing; every later step runs the project's Python.
    const QString folder = QString::fromStdString(m_session.project()->folder());
    if (options.stopAfter != PipelineStep::Generate && !TrustedFolders::ensureTrusted(folder)) {
        m_log.appendPlainText(tr("== %1 not run: %2 is not a trusted folder").arg(what, folder));
        return;
    }
    QString error;
    if (!m_session.saveAll(error)) { // the edits stay in the editors, marked unsaved
        m_log.appendPlainText(tr("== %1 not run: %2").arg(what, error));
        Q_EMIT statusChanged(tr("%1 not run: %2").arg(what, error));
        return;
    }
    m_session.closePopups(); // a completion list left open would sit over the results
    m_runTexts = editorTexts();
    options.sim.timeoutSeconds = SettingsDialog::caseTimeLimit();
    m_what = what;
    m_log.appendPlainText(QStringLiteral("== %1 %2").arg(what, folder));
    if (!m_runner.start(*m_session.project(), options)) return;
    updateActions();
    if (options.stopAfter >= PipelineStep::Verify) {
        const QString running = tr("%1 is running").arg(what);
        m_compare.stamp().markRunning(running);
        m_diff.stamp().markRunning(running);
        Q_EMIT verifyStarted(running);
    }
}

void RunController::showNewestSimulation(const QString& caseName)
{
    const std::string caseDir = runfolder::latestCaseDir(m_session.project()->runsFolder(),
                                                         "verify-sim", caseName.toStdString());
    if (caseDir.empty()) {
        Q_EMIT simulated({}, {}, caseName, {});
        return;
    }
    const QString dir = QString::fromStdString(caseDir);
    const QString trace = QDir(dir).filePath(QStringLiteral("trace.json"));
    Q_EMIT simulated(QFileInfo::exists(trace) ? trace : QString(), dir, caseName,
                     tr("%1 · the newest simulator run (%2)")
                         .arg(QString::fromStdString(m_session.project()->name()),
                              QFileInfo(dir).dir().dirName()));
}

void RunController::updateActions()
{
    const bool running = m_runner.isRunning();
    for (QAction* action : {m_generate, m_verify, m_export, m_redeploy})
        action->setEnabled(m_session.project() && !running);
    m_cancel->setEnabled(running);
}

void RunController::onFinished(const PipelineResult& result)
{
    updateActions();
    Diagnostics diagnostics;
    bool verified = false;
    for (const StepResult& step : result.steps) {
        diagnostics.insert(diagnostics.end(), step.diagnostics.begin(), step.diagnostics.end());
        verified =
            verified || (step.step == PipelineStep::Verify && !result.verification.cases.empty());
    }
    const StepResult* last = result.steps.empty() ? nullptr : &result.steps.back();
    const QString lastStep = last ? QString::fromLatin1(stepName(last->step)) : QString();
    if (verified) {
        const VerificationReport& report = result.verification;
        m_stamp = tr("%1 · %2 on %3 · %4")
                      .arg(QString::fromStdString(m_session.project()->name()), m_what,
                           QString::fromStdString(report.target),
                           QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")));
        m_compare.showReport(report, m_stamp);
        m_shownTexts = m_runTexts;
        // Edited while it ran: the report is of the files as they were saved when it started.
        const bool editedMeanwhile = editedSinceRunStarted();
        Q_EMIT panelWanted(&m_compare);
        if (const int failing = m_compare.firstFailingRow(); failing >= 0) {
            m_compare.selectRow(failing);
            showRow(failing);
        } else if (report.cases.front().costOnly) {
            m_diff.showMessage(tr("Nothing compared"),
                               tr("%1 produces no values: its cycles are in Cost/trace")
                                   .arg(QString::fromStdString(report.target)),
                               m_stamp);
        } else {
            m_diff.showMessage(tr("Every output passes"),
                               tr("pick a row of Run and Compare to see its difference"), m_stamp);
        }
        if (editedMeanwhile) markStale(tr("the files were edited while this run went on"));
    } else if (result.ok()) { // nothing verified (verify unchanged, or not asked for)
        m_compare.stamp().runEnded();
        m_diff.stamp().runEnded();
    } else {
        markStale(tr("the last %1 stopped at %2").arg(m_what.toLower(), lastStep));
    }
    if (hasErrors(diagnostics)) Q_EMIT diagnosticsFound(diagnostics);
    const bool costOnly = verified && result.verification.cases.front().costOnly;
    if (!result.tracePath.empty()) {
        const QString trace = QString::fromStdString(result.tracePath);
        const QString caseDir = QFileInfo(trace).absolutePath();
        Q_EMIT simulated(trace, caseDir, QFileInfo(caseDir).fileName(), m_stamp);
    } else if (costOnly) {
        showNewestSimulation(QString::fromStdString(result.verification.cases.front().caseName));
    } else if (verified) { // verified on a runner: no estimate, and the last one no longer applies
        Q_EMIT simulated({}, {}, {}, m_stamp);
    }
    const QString why = last ? QString::fromStdString(last->message) : QString();
    QString summary =
        result.ok() ? tr("%1 succeeded").arg(m_what)
        : lastStep == m_what.toLower()
            ? tr("%1 failed: %2").arg(m_what, why) // "Verify stopped at verify" says less
            : tr("%1 stopped at %2: %3").arg(m_what, lastStep, why);
    if (result.ok() && last && last->step == PipelineStep::Deploy &&
        last->status == StepResult::Status::NotRun)
        summary = tr("%1: exported, nothing deployed — %2")
                      .arg(m_what, QString::fromStdString(last->message));
    if (costOnly && result.ok())
        summary += tr(" — %1 measured the cases, nothing compared (its cycles are in Cost/trace)")
                       .arg(QString::fromStdString(result.verification.target));
    else if (verified)
        summary += m_compare.model().failures() == 0
                       ? tr(" — all %1 outputs pass").arg(m_compare.model().compared())
                       : tr(" — %1 of %2 outputs fail")
                             .arg(m_compare.model().failures())
                             .arg(m_compare.model().compared());
    Q_EMIT statusChanged(summary);
    m_log.appendPlainText(summary);
    Q_EMIT finished(result);
}

} // namespace ptowb
