#pragma once

#include "editor_session.h"
#include "pipeline_runner.h"

#include <QObject>

class QAction;
class QLabel;
class QMainWindow;
class QPlainTextEdit;
class QTableView;

namespace ptowb {

class TensorDiffPanel;
class VerificationModel;

// Verify (F5), Redeploy and Cancel (Esc), with the Run and Compare and Log docks: saves the
// session, runs the pipeline off the GUI thread and shows its progress and results.
class RunPanel : public QObject
{
    Q_OBJECT

public:
    RunPanel(QMainWindow* window, EditorSession& session);

    QAction* generateAction() const { return m_generate; }
    QAction* verifyAction() const { return m_verify; }
    QAction* exportAction() const { return m_export; }
    QAction* redeployAction() const { return m_redeploy; }
    QAction* cancelAction() const { return m_cancel; }
    VerificationModel& verification() { return *m_model; }
    PipelineRunner& runner() { return m_runner; }
    QPlainTextEdit& log() { return *m_log; }
    TensorDiffPanel& tensorDiff() { return *m_diff; }
    QTableView& table() { return *m_table; }
    // Shows a row of Run and Compare in the Tensor diff dock.
    void showRow(int row);

    void generate();
    void verify();
    void exportPackage();
    void redeploy();

Q_SIGNALS:
    // Problems a run found (a description that does not validate, a kernel the simulator rejects).
    void diagnosticsFound(const ptowb::Diagnostics& diagnostics);
    // A run simulated the kernel: the first case's trace.json and case folder (with captures).
    void simulated(const QString& tracePath, const QString& caseDir);
    // Every finished run, whatever it did (the glue may have been regenerated).
    void finished(const ptowb::PipelineResult& result);

private:
    void start(PipelineOptions options, const QString& what);
    void onFinished(const PipelineResult& result);

    QMainWindow* m_window;
    EditorSession& m_session;
    PipelineRunner m_runner;
    VerificationModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    TensorDiffPanel* m_diff = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_generate = nullptr;
    QAction* m_verify = nullptr;
    QAction* m_export = nullptr;
    QAction* m_redeploy = nullptr;
    QAction* m_cancel = nullptr;
    QString m_what;
};

} // namespace ptowb
