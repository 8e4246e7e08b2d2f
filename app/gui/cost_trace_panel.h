#pragma once

#include "cost/cost_model.h"
#include "run_folder/run_folder.h"
#include "tensor/error_map.h"
#include "work_pool.h"

#include <QWidget>

class QSpinBox;
class QLabel;
class QTableView;

namespace ptowb {

class CostComparisonView;
class LineCostModel;
class RunStampLabel;
class TensorHeatmap;

// The Cost/trace dock: the simulator's estimate per kernel line for the last sim run (most
// expensive first; click a row to go to the line), and the intermediate value a kernel line
// computed in that run (its stats and a heatmap of |value|), chosen by the kernel editor's
// cursor line; a line inside a loop has one value per iteration, picked with the iteration box
// (the last one first). Above them, the case's estimate beside PyPTO's CostModel when a
// pypto-sim run of the same case exists (CostComparisonView).
class CostTracePanel : public QWidget
{
    Q_OBJECT

public:
    explicit CostTracePanel(QWidget* parent = nullptr);

    // The trace.json of a simulated case, the case folder (for its captures), and the kernel's
    // source lines, read off the GUI thread (runShown says when); `stamp` names the run. An
    // empty trace path clears the panel. `pyptoCaseDir`: the pypto-sim run of the same case, for
    // the comparison ("" when there is none).
    void showRun(const QString& tracePath, const QString& caseDir, const QStringList& kernelLines,
                 const QString& stamp, const QString& pyptoCaseDir = {});
    // Shows what a kernel line (1-based) computed, loaded off the GUI thread
    // (intermediateShown says when); returns false when the run captured nothing there.
    bool showLine(int line);
    // The run shown no longer matches the files (an edit: lines may have moved; a new run).
    void markStale(const QString& why);
    RunStampLabel& stamp() { return *m_stamp; }

    LineCostModel& costs() { return *m_costs; }
    CostComparisonView& comparison() { return *m_comparison; }
    QTableView& costTable() { return *m_table; }
    TensorHeatmap& intermediateMap() { return *m_map; }
    QString intermediateText() const;
    QSpinBox& iterationPicker() { return *m_iteration; }

Q_SIGNALS:
    void lineActivated(int line);
    void runShown();
    void intermediateShown();

private:
    struct LoadedRun
    {
        cost::CostReport report;
        std::vector<runfolder::CaptureFile> captures;
        nlohmann::ordered_json ours, pypto; // run.json "cost" of the case and its pypto-sim run
        QString error;
    };
    struct LoadedCapture
    {
        Tensor value;
        ValueStats stats;
        SliceSpec slice;
        ErrorMap magnitude;
        QString error;
    };
    void applyRun(const QString& tracePath, const QString& caseDir, const QStringList& kernelLines,
                  const QString& stamp, const QString& pyptoCaseDir, LoadedRun run);
    void showCapture(int index); // into m_lineCaptures
    void applyCapture(LoadedCapture capture);

    std::vector<runfolder::CaptureFile> m_captures;
    std::vector<int> m_lineCaptures; // indices into m_captures for the shown line, by execution
    int m_shownLine = -1;
    int m_requestedLine = 0;
    RunStampLabel* m_stamp = nullptr;
    LineCostModel* m_costs = nullptr;
    QLabel* m_summary = nullptr;
    CostComparisonView* m_comparison = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_intermediateTitle = nullptr;
    QSpinBox* m_iteration = nullptr;
    QLabel* m_stats = nullptr;
    TensorHeatmap* m_map = nullptr;
    JobTracker<LoadedRun> m_runLoader{this};
    JobTracker<LoadedCapture> m_captureLoader{this};
};

} // namespace ptowb
