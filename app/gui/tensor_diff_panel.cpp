#include "tensor_diff_panel.h"

#include "histogram_view.h"
#include "run_stamp_label.h"
#include "slice_values_model.h"
#include "tensor/npy.h"
#include "tensor_heatmap.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ptowb {

namespace {

// A heatmap this size in cells keeps the worst element of any block visible.
constexpr int kMaxCells = 512;

QString indexText(const std::vector<std::int64_t>& index)
{
    QStringList parts;
    for (auto i : index)
        parts << QString::number(i);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

TensorDiffPanel::TensorDiffPanel(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(tr("No output selected"));
    m_title->setObjectName(QStringLiteral("diffTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stamp =
        new RunStampLabel(tr("Pick a row of Run and Compare to see where its outputs differ"));
    m_rowAxis = new QComboBox;
    m_colAxis = new QComboBox;
    for (QComboBox* box : {m_rowAxis, m_colAxis})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_fixed = new QLineEdit;
    m_fixed->setPlaceholderText(tr("index of the other axes, e.g. 0, 3"));
    m_relative = new QCheckBox(tr("Relative"));
    m_log = new QCheckBox(tr("Log scale"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Rows")));
    controls->addWidget(m_rowAxis);
    controls->addWidget(new QLabel(tr("Columns")));
    controls->addWidget(m_colAxis);
    controls->addWidget(m_fixed, 1);
    controls->addWidget(m_relative);
    controls->addWidget(m_log);

    m_heatmap = new TensorHeatmap;
    m_hover = new QLabel;
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_histogramView = new HistogramView;
    m_histogramView->setObjectName(QStringLiteral("errorHistogram"));
    m_worst = new QTableWidget(0, 4);
    m_worst->setObjectName(QStringLiteral("worstElements"));
    m_worst->setHorizontalHeaderLabels(
        {tr("Index"), tr("Expected"), tr("Actual"), tr("Abs error")});
    m_worst->verticalHeader()->hide();
    m_worst->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_worst->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_worst->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_worst->horizontalHeader()->setStretchLastSection(true);

    // Expected and actual values of the slice side by side, scrolling together.
    m_expectedValues = new SliceValuesModel(this);
    m_actualValues = new SliceValuesModel(this);
    m_expectedView = new QTableView;
    m_actualView = new QTableView;
    QTableView* expectedView = m_expectedView;
    QTableView* actualView = m_actualView;
    expectedView->setObjectName(QStringLiteral("expectedValues"));
    actualView->setObjectName(QStringLiteral("actualValues"));
    expectedView->setModel(m_expectedValues);
    actualView->setModel(m_actualValues);
    for (QTableView* view : {expectedView, actualView})
        view->horizontalHeader()->setDefaultSectionSize(72);
    for (auto bars :
         {std::pair{expectedView->verticalScrollBar(), actualView->verticalScrollBar()},
          std::pair{expectedView->horizontalScrollBar(), actualView->horizontalScrollBar()}}) {
        connect(bars.first, &QScrollBar::valueChanged, bars.second, &QScrollBar::setValue);
        connect(bars.second, &QScrollBar::valueChanged, bars.first, &QScrollBar::setValue);
    }
    auto* grids = new QWidget;
    auto* gridLayout = new QHBoxLayout(grids);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    for (auto [title, view] :
         {std::pair{tr("Expected"), expectedView}, std::pair{tr("Actual"), actualView}}) {
        auto* column = new QVBoxLayout;
        column->addWidget(new QLabel(title));
        column->addWidget(view);
        gridLayout->addLayout(column);
    }

    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(new QLabel(tr("Worst elements")));
    sideLayout->addWidget(m_worst, 1);
    auto* mapColumn = new QWidget;
    auto* mapLayout = new QVBoxLayout(mapColumn);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addWidget(m_heatmap, 1);
    mapLayout->addWidget(m_histogramView);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(mapColumn);
    split->addWidget(side);
    split->addWidget(grids);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 3);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stamp);
    layout->addWidget(m_title);
    layout->addLayout(controls);
    layout->addWidget(split, 1);
    layout->addWidget(m_hover);

    connect(m_heatmap, &TensorHeatmap::hovered, m_hover, &QLabel::setText);
    connect(m_log, &QCheckBox::toggled, m_heatmap, &TensorHeatmap::setLogScale);
    connect(m_relative, &QCheckBox::toggled, this, &TensorDiffPanel::refresh);
    connect(m_rowAxis, &QComboBox::currentIndexChanged, this, &TensorDiffPanel::refresh);
    connect(m_colAxis, &QComboBox::currentIndexChanged, this, &TensorDiffPanel::refresh);
    connect(m_fixed, &QLineEdit::editingFinished, this, &TensorDiffPanel::refresh);
    connect(m_worst, &QTableWidget::cellClicked, this, [this](int row, int) {
        std::vector<std::int64_t> element;
        for (const QVariant& v : m_worst->item(row, 0)->data(Qt::UserRole).toList())
            element.push_back(v.toLongLong());
        showElement(element);
    });
}

void TensorDiffPanel::showElement(const std::vector<std::int64_t>& element)
{
    if (element.size() != m_actual.shape().size()) return;
    // Show the slice the element lies in, mark it on the map, and centre both value grids on it.
    if (element.size() > 2) {
        QStringList parts;
        for (auto i : element)
            parts << QString::number(i);
        m_fixed->setText(parts.join(QStringLiteral(", ")));
        refresh();
    }
    m_heatmap->markElement(element);
    const SliceSpec slice = currentSlice();
    const std::size_t rank = element.size();
    const int row = rank >= 2 ? int(element[std::size_t(slice.rowAxis)]) : 0;
    const int col = rank >= 2   ? int(element[std::size_t(slice.colAxis)])
                    : rank == 1 ? int(element[0])
                                : 0;
    for (auto [view, model] :
         {std::pair{m_expectedView, m_expectedValues}, std::pair{m_actualView, m_actualValues}}) {
        const QModelIndex index = model->index(row, col);
        if (!index.isValid()) continue;
        view->setCurrentIndex(index);
        view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    }
}

void TensorDiffPanel::showOutput(const QString& title, const QString& actualPath,
                                 const QString& expectedPath,
                                 const std::vector<WorstElement>& worst, const QString& stamp)
{
    m_stamp->setRun(stamp);
    m_title->setText(tr("%1 (loading…)").arg(title));
    m_loader.start(
        [actualPath, expectedPath](const std::atomic<bool>&) {
            LoadedOutput loaded;
            auto actual = readNpy(actualPath.toStdString());
            auto expected = readNpy(expectedPath.toStdString());
            if (auto* e = std::get_if<std::string>(&actual))
                loaded.error = QString::fromStdString(*e);
            else if (auto* e = std::get_if<std::string>(&expected))
                loaded.error = QString::fromStdString(*e);
            else {
                loaded.actual = std::move(std::get<Tensor>(actual));
                loaded.expected = std::move(std::get<Tensor>(expected));
                loaded.histogram = errorHistogram(loaded.actual, loaded.expected);
            }
            return loaded;
        },
        [this, title, worst](LoadedOutput loaded) { apply(title, std::move(loaded), worst); });
}

void TensorDiffPanel::apply(const QString& title, LoadedOutput loaded,
                            const std::vector<WorstElement>& worst)
{
    if (!loaded.error.isEmpty()) {
        clearData();
        m_title->setText(title + QStringLiteral(": ") + loaded.error);
        Q_EMIT outputShown(loaded.error);
        return;
    }
    m_actual = std::move(loaded.actual);
    m_expected = std::move(loaded.expected);
    m_title->setText(title);
    const int rank = int(m_actual.shape().size());
    for (QComboBox* box : {m_rowAxis, m_colAxis}) {
        const QSignalBlocker block(box);
        box->clear();
        for (int d = 0; d < rank; ++d)
            box->addItem(tr("axis %1 (%2)").arg(d).arg(m_actual.shape()[std::size_t(d)]));
    }
    {
        const QSignalBlocker a(m_rowAxis), b(m_colAxis);
        m_rowAxis->setCurrentIndex(std::max(0, rank - 2));
        m_colAxis->setCurrentIndex(std::max(0, rank - 1));
    }
    m_fixed->clear();
    m_worst->setRowCount(int(worst.size()));
    for (int r = 0; r < int(worst.size()); ++r) {
        const WorstElement& w = worst[std::size_t(r)];
        auto* index = new QTableWidgetItem(indexText(w.index));
        QVariantList list;
        for (auto i : w.index)
            list << QVariant::fromValue<qlonglong>(i);
        index->setData(Qt::UserRole, list);
        m_worst->setItem(r, 0, index);
        m_worst->setItem(r, 1, new QTableWidgetItem(QString::number(w.expected, 'g', 7)));
        m_worst->setItem(r, 2, new QTableWidgetItem(QString::number(w.actual, 'g', 7)));
        m_worst->setItem(r, 3, new QTableWidgetItem(QString::number(w.absError, 'g', 4)));
    }
    m_histogram = std::move(loaded.histogram);
    m_histogramView->setHistogram(m_histogram);
    refresh();
    Q_EMIT outputShown({});
}

void TensorDiffPanel::showMessage(const QString& title, const QString& message,
                                  const QString& stamp)
{
    m_loader.cancel(); // an output still loading would replace the message
    clearData();
    m_stamp->setRun(stamp);
    m_title->setText(message.isEmpty() ? title : title + QStringLiteral(": ") + message);
}

void TensorDiffPanel::markStale(const QString& why)
{
    m_stamp->markStale(why);
}

void TensorDiffPanel::reset()
{
    m_loader.cancel();
    clearData();
    m_stamp->reset();
    m_title->setText(tr("No output selected"));
}

QString TensorDiffPanel::titleText() const
{
    return m_title->text();
}

void TensorDiffPanel::clearData()
{
    m_actual = m_expected = Tensor();
    m_histogram = {};
    m_histogramView->setHistogram(m_histogram);
    for (QComboBox* box : {m_rowAxis, m_colAxis}) {
        const QSignalBlocker block(box);
        box->clear();
    }
    m_fixed->clear();
    m_worst->setRowCount(0);
    m_heatmap->setData({}, {}, {}, {});
    m_expectedValues->clear();
    m_actualValues->clear();
    m_hover->clear();
}

SliceSpec TensorDiffPanel::currentSlice() const
{
    SliceSpec s;
    s.rowAxis = m_rowAxis->currentIndex();
    s.colAxis = m_colAxis->currentIndex();
    s.relative = m_relative->isChecked();
    s.fixed.assign(m_actual.shape().size(), 0);
    const QStringList parts = m_fixed->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (int k = 0; k < parts.size() && k < int(s.fixed.size()); ++k)
        s.fixed[std::size_t(k)] = parts[k].trimmed().toLongLong();
    return s;
}

void TensorDiffPanel::refresh()
{
    const SliceSpec slice = currentSlice();
    m_heatmap->setData(m_actual, m_expected, slice,
                       computeErrorMap(m_actual, m_expected, slice, kMaxCells, kMaxCells));
    m_expectedValues->setData(m_expected, m_actual, slice);
    m_actualValues->setData(m_actual, m_expected, slice);
}

} // namespace ptowb
