#include "cost_trace_panel.h"

#include "cost/pypto_line_cycles.h"
#include "cost_comparison_view.h"
#include "line_cost_model.h"
#include "project/atomic_file.h"
#include "run_stamp_label.h"
#include "tensor/error_map.h"
#include "tensor/npy.h"
#include "tensor_heatmap.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ptowb {

CostTracePanel::CostTracePanel(QWidget* parent) : QWidget(parent)
{
    m_costs = new LineCostModel(this);
    m_summary =
        new QLabel(tr("Verify against the simulator to see its cost estimate per kernel line."));
    m_summary->setWordWrap(true);
    m_stamp = new RunStampLabel(tr("No simulator run yet"));
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("costTable"));
    m_table->setModel(m_costs);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(LineCostModel::StatementColumn,
                                                      QHeaderView::Stretch);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const int line = index.data(LineCostModel::LineRole).toInt();
        showLine(line);
        Q_EMIT lineActivated(line);
    });

    m_intermediateTitle =
        new QLabel(tr("<b>Intermediate</b>: put the kernel editor's cursor on a line"));
    m_iteration = new QSpinBox;
    m_iteration->setObjectName(QStringLiteral("intermediateIteration"));
    m_iteration->setPrefix(tr("iteration "));
    m_iteration->setToolTip(
        tr("Which execution of the line to show: a loop's iterations, in order"));
    connect(m_iteration, &QSpinBox::valueChanged, this,
            [this](int value) { showCapture(value - 1); });
    m_stats = new QLabel;
    m_stats->setObjectName(QStringLiteral("intermediateStats"));
    m_stats->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_map = new TensorHeatmap;
    m_map->setObjectName(QStringLiteral("intermediateMap"));
    m_map->setPlaceholder(tr("No value captured at this line"));
    connect(m_map, &TensorHeatmap::hovered, m_stats,
            [this](const QString& text) { m_map->setToolTip(text); });

    auto* intermediate = new QWidget;
    auto* head = new QHBoxLayout;
    head->addWidget(m_intermediateTitle, 1);
    head->addWidget(m_iteration);
    auto* intermediateLayout = new QVBoxLayout(intermediate);
    intermediateLayout->setContentsMargins(0, 0, 0, 0);
    intermediateLayout->addLayout(head);
    intermediateLayout->addWidget(m_stats);
    intermediateLayout->addWidget(m_map, 1);

    auto* costs = new QWidget;
    auto* costLayout = new QVBoxLayout(costs);
    costLayout->setContentsMargins(0, 0, 0, 0);
    costLayout->addWidget(m_summary);
    costLayout->addWidget(m_table, 1);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(costs);
    splitter->addWidget(intermediate);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({600, 400});
    m_comparison = new CostComparisonView;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stamp);
    layout->addWidget(m_comparison);
    layout->addWidget(splitter, 1);
}

void CostTracePanel::showRun(const QString& tracePath, const QString& caseDir,
                             const QStringList& kernelLines, const QString& stamp,
                             const QString& pyptoCaseDir)
{
    if (tracePath.isEmpty()) m_stamp->reset(); // at once: it must not name a closed project's run
    m_runLoader.start(
        [tracePath, caseDir, pyptoCaseDir](const std::atomic<bool>&) {
            LoadedRun run;
            if (!tracePath.isEmpty()) {
                std::string text;
                std::string error;
                if (readTextFile(tracePath.toStdString(), text, error))
                    run.report = cost::costReportFromTrace(text);
                run.error = QString::fromStdString(error);
            }
            if (!caseDir.isEmpty()) {
                run.captures = runfolder::listCaptures(caseDir.toStdString());
                run.ours = runfolder::readCost(caseDir.toStdString());
            }
            if (!pyptoCaseDir.isEmpty())
                run.pypto = runfolder::readCost(pyptoCaseDir.toStdString());
            return run;
        },
        [this, tracePath, caseDir, kernelLines, stamp, pyptoCaseDir](LoadedRun run) {
            applyRun(tracePath, caseDir, kernelLines, stamp, pyptoCaseDir, std::move(run));
        });
}

void CostTracePanel::applyRun(const QString& tracePath, const QString& caseDir,
                              const QStringList& kernelLines, const QString& stamp,
                              const QString& pyptoCaseDir, LoadedRun run)
{
    m_comparison->setCosts(QFileInfo(caseDir).fileName(), run.ours, run.pypto, pyptoCaseDir);
    m_costs->setReport(run.report, kernelLines);
    auto pypto = cost::busyCyclesByLine(run.pypto);
    m_table->setColumnHidden(LineCostModel::PyptoColumn, pypto.empty());
    m_costs->setPyptoCycles(std::move(pypto));
    if (stamp.isEmpty() || run.report.events.empty())
        m_stamp->reset();
    else
        m_stamp->setRun(stamp);
    if (run.report.events.empty())
        m_summary->setText(
            run.error.isEmpty()
                ? tr("Verify against the simulator to see its cost estimate per kernel line.")
                : run.error);
    else
        m_summary->setText(tr("Estimated <b>%1</b> on %2 for the first case, %3 operations (an "
                              "estimate, not a measurement)")
                               .arg(formatMicroseconds(run.report.totalUs),
                                    QString::fromStdString(run.report.platform).toHtmlEscaped())
                               .arg(run.report.operations()));
    m_summary->setToolTip(
        tracePath.isEmpty() ? QString() : tr("Chrome trace (open in Perfetto): %1").arg(tracePath));
    m_captures = std::move(run.captures);
    m_shownLine = -1;
    showLine(m_requestedLine);
    Q_EMIT runShown();
}

void CostTracePanel::markStale(const QString& why)
{
    m_stamp->markStale(why);
}

bool CostTracePanel::showLine(int line)
{
    m_requestedLine = line;
    if (line == m_shownLine) return !m_lineCaptures.empty(); // the cursor moved within the line
    m_shownLine = line;
    m_lineCaptures.clear();
    for (std::size_t k = 0; k < m_captures.size(); ++k)
        if (m_captures[k].line == line) m_lineCaptures.push_back(int(k));
    const QSignalBlocker block(m_iteration);
    const int kept = int(m_lineCaptures.size());
    m_iteration->setRange(1, std::max(1, kept));
    m_iteration->setSuffix(tr(" of %1").arg(kept));
    m_iteration->setValue(kept); // the last iteration, as the line left its value
    m_iteration->setVisible(kept > 1);
    if (m_lineCaptures.empty()) {
        m_intermediateTitle->setText(
            line > 0 ? tr("<b>Intermediate</b> at line %1: nothing captured").arg(line)
                     : tr("<b>Intermediate</b>: put the kernel editor's cursor on a line"));
        m_stats->clear();
        m_map->setData({}, {}, {}, {});
        m_captureLoader.cancel();
        Q_EMIT intermediateShown();
        return false;
    }
    showCapture(kept - 1);
    return true;
}

void CostTracePanel::showCapture(int index)
{
    if (index < 0 || index >= int(m_lineCaptures.size())) return;
    const runfolder::CaptureFile& capture =
        m_captures[std::size_t(m_lineCaptures[std::size_t(index)])];
    QString title = tr("<b>Intermediate</b> at line %1: <code>%2</code>")
                        .arg(capture.line)
                        .arg(QString::fromStdString(capture.name).toHtmlEscaped());
    const int kept = int(m_lineCaptures.size());
    const int executions = m_captures[std::size_t(m_lineCaptures.back())].execution;
    if (executions > 1) title += tr(", execution %1 of %2").arg(capture.execution).arg(executions);
    if (executions > kept)
        title += tr(" (a long loop keeps its first %1 and its last)").arg(kept - 1);
    m_intermediateTitle->setText(title);
    m_stats->setText(tr("loading…"));
    m_captureLoader.start(
        [path = capture.path](const std::atomic<bool>&) {
            LoadedCapture loaded;
            auto read = readNpy(path);
            if (const auto* error = std::get_if<std::string>(&read)) {
                loaded.error = QString::fromStdString(*error);
                return loaded;
            }
            loaded.value = std::move(std::get<Tensor>(read));
            loaded.stats = valueStats(loaded.value);
            const int rank = int(loaded.value.shape().size());
            loaded.slice.rowAxis = std::max(0, rank - 2);
            loaded.slice.colAxis = std::max(1, rank - 1);
            loaded.slice.fixed.assign(std::size_t(rank), 0);
            loaded.magnitude = computeMagnitudeMap(loaded.value, loaded.slice, 512, 512);
            return loaded;
        },
        [this](LoadedCapture loaded) { applyCapture(std::move(loaded)); });
}

void CostTracePanel::applyCapture(LoadedCapture loaded)
{
    if (!loaded.error.isEmpty()) {
        m_stats->setText(loaded.error);
        m_map->setData({}, {}, {}, {});
        Q_EMIT intermediateShown();
        return;
    }
    const Tensor& value = loaded.value;
    const ValueStats& stats = loaded.stats;
    QStringList dims;
    for (auto d : value.shape())
        dims << QString::number(d);
    const std::string_view dtype = dtypeInfo(value.dtype()).name;
    QString text = tr("%1[%2]  min %3  max %4  mean %5  std %6")
                       .arg(QString::fromLatin1(dtype.data(), qsizetype(dtype.size())),
                            dims.join(QStringLiteral(", ")))
                       .arg(stats.min, 0, 'g', 5)
                       .arg(stats.max, 0, 'g', 5)
                       .arg(stats.mean, 0, 'g', 5)
                       .arg(stats.stddev, 0, 'g', 5);
    if (stats.nanCount || stats.infCount)
        text += tr("  <b>NaN %1  Inf %2</b>").arg(stats.nanCount).arg(stats.infCount);
    m_stats->setText(text);
    m_map->setValues(value, loaded.slice, loaded.magnitude);
    Q_EMIT intermediateShown();
}

QString CostTracePanel::intermediateText() const
{
    return m_intermediateTitle->text() + QLatin1Char('\n') + m_stats->text();
}

} // namespace ptowb
