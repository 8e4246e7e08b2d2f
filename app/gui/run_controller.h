#pragma once

#include "editor_session.h"
#include "pipeline_runner.h"

#include <QObject>
#include <QTimer>
#include <array>

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
    // The editors no longer hold the text the last run started with.
    bool editedSinceRunStarted() const { return editorTexts() != m_runTexts; }
    // Generate, Verify, Export and Redeploy when a project is open and nothing runs; Cancel
    // while something does.
    void updateActions();
    void reset();

    // What Verify runs the kernel with (the toolbar's choice, run/backend.h). A target without
    // values (pypto-sim) only measures, so Export and Redeploy still verify on the simulator.
    void setVerifyTarget(const QString& name, bool producesValues);

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
    // An editor's text no longer is what the shown results were made from (`why` says which).
    void edited(const QString& why);
    // What Cost/trace shows after a run: the first case's trace.json and case folder (with
    // captures) of the simulator's run, the case's name (for the same case's PyPTO run) and a
    // stamp naming the simulator run; both paths empty when there is no simulator run to show.
    // A run against a target without values (pypto-sim) names the newest simulator run of the
    // case, so PyPTO's figures appear beside our estimate.
    void simulated(const QString& tracePath, const QString& caseDir, const QString& caseName,
                   const QString& stamp);
    // Every finished run, whatever it did (the glue may have been regenerated).
    void finished(const ptowb::PipelineResult& result);

private:
    using Texts = std::array<QString, EditorSession::kDocumentCount>;
    void start(PipelineOptions options, const QString& what);
    std::string exportTarget() const; // what Export and Redeploy verify on
    // Cost/trace after a run without values: the newest simulator run of the case.
    void showNewestSimulation(const QString& caseName);
    void onFinished(const PipelineResult& result);
    void checkEdits();
    Texts editorTexts() const;

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
    QString m_against = QStringLiteral("sim");
    bool m_againstProducesValues = true;
    QString m_stamp; // of the verification the panels show
    // The files as the running run and the shown results used them: only text that differs is
    // an edit (an editor also reports a change when its text is set to what it already was).
    Texts m_runTexts, m_shownTexts;
    // Setting an editor's text reports an empty document first: the check waits for the end.
    QTimer m_editCheck;
    std::array<bool, EditorSession::kDocumentCount> m_changed{};
};

} // namespace ptowb
