#pragma once

#include "editor_session.h"
#include "pipeline_runner.h"

#include <QObject>

class QAction;
class QPlainTextEdit;
class QWidget;

namespace ptowb {

class RunComparePanel;
class TensorDiffPanel;

// Generate, Verify (F5), Export, Redeploy and Cancel (Esc): saves the session, runs the pipeline
// off the GUI thread, and puts what it did into the Run and Compare, Tensor diff and Log panels.
// It owns no widget but its actions; the window places the panels and shows the status.
class RunController : public QObject
{
    Q_OBJECT

public:
    // `window` parents the controller and gives its actions their icons.
    RunController(QWidget* window, EditorSession& session, RunComparePanel& compare,
                  TensorDiffPanel& diff, QPlainTextEdit& log);

    QAction* generateAction() const { return m_generate; }
    QAction* verifyAction() const { return m_verify; }
    QAction* exportAction() const { return m_export; }
    QAction* redeployAction() const { return m_redeploy; }
    QAction* cancelAction() const { return m_cancel; }
    PipelineRunner& runner() { return m_runner; }
    // Shows a row of Run and Compare in the Tensor diff.
    void showRow(int row);
    // The results shown no longer match the editors (an edit), or belong to no project.
    void markStale(const QString& why);
    // Generate, Verify, Export and Redeploy when a project is open and nothing runs; Cancel
    // while something does.
    void updateActions();
    void reset();

    void generate();
    void verify();
    void exportPackage();
    void redeploy();

Q_SIGNALS:
    // What the status bar says about the current or last run.
    void statusChanged(const QString& text);
    // The panel that now shows the run's news wants to be seen.
    void panelWanted(QWidget* panel);
    // A run started that may verify: whatever a panel shows from the last one is stale while
    // it runs (`why` says so).
    void verifyStarted(const QString& why);
    // Problems a run found (a description that does not validate, a kernel the simulator rejects).
    void diagnosticsFound(const ptowb::Diagnostics& diagnostics);
    // A run simulated the kernel: the first case's trace.json and case folder (with captures),
    // and the run's stamp; both paths empty when the run verified without the simulator.
    void simulated(const QString& tracePath, const QString& caseDir, const QString& stamp);
    // Every finished run, whatever it did (the glue may have been regenerated).
    void finished(const ptowb::PipelineResult& result);

private:
    void start(PipelineOptions options, const QString& what);
    void onFinished(const PipelineResult& result);

    EditorSession& m_session;
    RunComparePanel& m_compare;
    TensorDiffPanel& m_diff;
    QPlainTextEdit& m_log;
    PipelineRunner m_runner;
    QAction* m_generate = nullptr;
    QAction* m_verify = nullptr;
    QAction* m_export = nullptr;
    QAction* m_redeploy = nullptr;
    QAction* m_cancel = nullptr;
    QString m_what;
    QString m_stamp; // of the verification the panels show
};

} // namespace ptowb
