#pragma once

#include "tensor/compare.h"
#include "tensor/error_map.h"
#include "work_pool.h"

#include <QWidget>
#include <array>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace ptowb {

class HistogramView;
class RunStampLabel;
class SliceValuesModel;
class TensorHeatmap;

// The Tensor diff dock: the heatmap of one output's error over a chosen 2-D slice with its
// histogram, beside the worst elements (click one to mark it on the map and centre the values
// on it, double-click to show them); the values side by side on a page of their own; the axis
// and index choice, linear/log and absolute/relative toggles.
class TensorDiffPanel : public QWidget
{
    Q_OBJECT

public:
    explicit TensorDiffPanel(QWidget* parent = nullptr);

    // Loads both .npy files off the GUI thread and shows their difference; outputShown says
    // when (with "" or why it could not). A later call supersedes one still loading. `stamp`
    // names the run the files came from.
    void showOutput(const QString& title, const QString& actualPath, const QString& expectedPath,
                    const std::vector<WorstElement>& worst, const QString& stamp);
    // Nothing to compare (a case that could not run, a run where every output passes): the
    // message instead of any earlier difference.
    void showMessage(const QString& title, const QString& message, const QString& stamp);
    void markStale(const QString& why);
    void reset(); // no run (a project was opened or closed)
    QString titleText() const;
    RunStampLabel& stamp() { return *m_stamp; }
    bool hasData() const { return m_actual.isValid(); }
    TensorHeatmap& heatmap() { return *m_heatmap; }
    QTableWidget& worstTable() { return *m_worst; }
    // The histogram shown: of the absolute or, with Relative on, the relative error.
    const ErrorHistogram& histogram() const;
    QCheckBox& relativeToggle() { return *m_relative; }
    QTabWidget& pages() { return *m_pages; }
    HistogramView& histogramView() { return *m_histogramView; }
    SliceValuesModel& expectedValues() { return *m_expectedValues; }
    SliceValuesModel& actualValues() { return *m_actualValues; }
    QTableView& expectedView() { return *m_expectedView; }
    // Selects the slice an element lies in, marks it on the map and centres the value grids on it.
    void showElement(const std::vector<std::int64_t>& element);

Q_SIGNALS:
    void outputShown(const QString& error);

private:
    struct LoadedOutput
    {
        Tensor actual, expected;
        std::array<ErrorHistogram, 2> histograms; // absolute, relative
        QString error;
    };
    QWidget* createControls();
    QWidget* createMapPage();
    QWidget* createValuesPage();
    void apply(const QString& title, LoadedOutput loaded, const std::vector<WorstElement>& worst);
    void refresh();
    void clearData();
    void setTitle(const QString& text);
    void showHistogram();
    std::vector<std::int64_t> worstElementAt(int row) const;
    SliceSpec currentSlice() const;

    Tensor m_actual, m_expected;
    std::vector<std::int64_t> m_marked;         // the worst element last chosen
    std::array<ErrorHistogram, 2> m_histograms; // absolute, relative
    QLabel* m_title = nullptr;
    RunStampLabel* m_stamp = nullptr;
    QComboBox* m_rowAxis = nullptr;
    QComboBox* m_colAxis = nullptr;
    QLineEdit* m_fixed = nullptr;
    QCheckBox* m_relative = nullptr;
    QCheckBox* m_log = nullptr;
    QLabel* m_hover = nullptr;
    HistogramView* m_histogramView = nullptr;
    TensorHeatmap* m_heatmap = nullptr;
    QTableWidget* m_worst = nullptr;
    SliceValuesModel* m_expectedValues = nullptr;
    SliceValuesModel* m_actualValues = nullptr;
    JobTracker<LoadedOutput> m_loader{this};
    QTableView* m_expectedView = nullptr;
    QTableView* m_actualView = nullptr;
    QTabWidget* m_pages = nullptr;
};

} // namespace ptowb
