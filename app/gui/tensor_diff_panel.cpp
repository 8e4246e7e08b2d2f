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
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
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

// The dock shares the window with the editors: nothing in it may need more room once a result
// is shown than it did empty, or the dock grows and the editors shrink. So every part has a
// minimum size of its own, independent of what it shows, and a long title is cut, not wrapped.
TensorDiffPanel::TensorDiffPanel(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(tr("No output selected"));
    m_title->setObjectName(QStringLiteral("diffTitle"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_stamp =
        new RunStampLabel(tr("Pick a row of Run and Compare to see where its outputs differ"));
    m_hover = new QLabel;
    m_hover->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hover->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QWidget* controls = createControls();
    QWidget* mapPage = createMapPage();
    QWidget* grids = createValuesPage();
    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("diffPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(mapPage, tr("Error map"));
    m_pages->addTab(grids, tr("Values"));
    m_pages->setCornerWidget(controls, Qt::TopRightCorner); // a row of its own costs the map
    m_pages->tabBar()->setUsesScrollButtons(false);
    m_pages->tabBar()->setElideMode(Qt::ElideNone);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(m_stamp);
    layout->addWidget(m_title);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_hover);

    connect(m_heatmap, &TensorHeatmap::hovered, m_hover, &QLabel::setText);
    connect(m_log, &QCheckBox::toggled, m_heatmap, &TensorHeatmap::setLogScale);
    connect(m_relative, &QCheckBox::toggled, this, &TensorDiffPanel::refresh);
    connect(m_relative, &QCheckBox::toggled, this, &TensorDiffPanel::showHistogram);
    connect(m_rowAxis, &QComboBox::currentIndexChanged, this, &TensorDiffPanel::refresh);
    connect(m_colAxis, &QComboBox::currentIndexChanged, this, &TensorDiffPanel::refresh);
    connect(m_fixed, &QLineEdit::editingFinished, this, &TensorDiffPanel::refresh);
    connect(m_worst, &QTableWidget::cellClicked, this,
            [this](int row, int) { showElement(worstElementAt(row)); });
    connect(m_worst, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        showElement(worstElementAt(row));
        m_pages->setCurrentIndex(1);
    });
}

QWidget* TensorDiffPanel::createControls()
{
    m_rowAxis = new QComboBox;
    m_colAxis = new QComboBox;
    for (QComboBox* box : {m_rowAxis, m_colAxis}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8); // "axis 1 (4096)" shows as "axis 1 (4…"
    }
    m_fixed = new QLineEdit;
    m_fixed->setPlaceholderText(tr("other axes' index, e.g. 0, 3"));
    m_fixed->setToolTip(tr("The index of the axes not shown, e.g. 0, 3"));
    m_relative = new QCheckBox(tr("Relative"));
    m_relative->setToolTip(tr("Map and histogram of |actual − expected| / |expected|"));
    m_log = new QCheckBox(tr("Log scale"));
    auto* controls = new QWidget;
    auto* controlsLayout = new QHBoxLayout(controls);
    controlsLayout->setContentsMargins(4, 0, 0, 0);
    controlsLayout->addWidget(new QLabel(tr("Rows")));
    controlsLayout->addWidget(m_rowAxis);
    controlsLayout->addWidget(new QLabel(tr("Columns")));
    controlsLayout->addWidget(m_colAxis);
    controlsLayout->addWidget(m_fixed, 1);
    controlsLayout->addWidget(m_relative);
    controlsLayout->addWidget(m_log);
    return controls;
}

// The map and its histogram beside the worst elements; the values, which need the width, have a
// page of their own.
QWidget* TensorDiffPanel::createMapPage()
{
    m_heatmap = new TensorHeatmap;
    m_heatmap->setMinimumSize(160, 60);
    m_histogramView = new HistogramView;
    m_histogramView->setObjectName(QStringLiteral("errorHistogram"));
    m_worst = new QTableWidget(0, 4);
    m_worst->setObjectName(QStringLiteral("worstElements"));
    m_worst->setHorizontalHeaderLabels(
        {tr("Index"), tr("Expected"), tr("Actual"), tr("Abs error")});
    m_worst->verticalHeader()->hide();
    m_worst->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_worst->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_worst->setWordWrap(false);
    m_worst->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_worst->horizontalHeader()->setStretchLastSection(true);
    m_worst->setToolTip(tr("Click to mark the element on the map and centre the values on it; "
                           "double-click to show the values"));
    // Room for the four columns of a typical row, so none is cut off at the default layout.
    const QFontMetrics metrics = m_worst->fontMetrics();
    const int padding = 2 * m_worst->style()->pixelMetric(QStyle::PM_HeaderMargin) + 8;
    m_worst->setMinimumWidth(metrics.horizontalAdvance(QStringLiteral("[000, 000]")) +
                             2 * metrics.horizontalAdvance(QStringLiteral("-0.00012345678")) +
                             metrics.horizontalAdvance(QStringLiteral("1.234e-05")) + 4 * padding +
                             m_worst->style()->pixelMetric(QStyle::PM_ScrollBarExtent) +
                             2 * m_worst->frameWidth());

    auto* mapColumn = new QWidget;
    auto* mapLayout = new QVBoxLayout(mapColumn);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->setSpacing(2);
    mapLayout->addWidget(m_heatmap, 1);
    mapLayout->addWidget(m_histogramView);
    auto* worstColumn = new QWidget;
    auto* worstLayout = new QVBoxLayout(worstColumn);
    worstLayout->setContentsMargins(0, 0, 0, 0);
    worstLayout->setSpacing(2);
    worstLayout->addWidget(new QLabel(tr("Worst elements")));
    worstLayout->addWidget(m_worst, 1);
    auto* mapPage = new QSplitter(Qt::Horizontal);
    mapPage->addWidget(mapColumn);
    mapPage->addWidget(worstColumn);
    mapPage->setStretchFactor(0, 1);
    mapPage->setStretchFactor(1, 0);
    mapPage->setChildrenCollapsible(false);
    return mapPage;
}

// Expected and actual values of the slice side by side, scrolling together.
QWidget* TensorDiffPanel::createValuesPage()
{
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
    for (QTableView* view : {expectedView, actualView}) {
        view->setWordWrap(false);
        view->horizontalHeader()->setDefaultSectionSize(
            view->fontMetrics().horizontalAdvance(QStringLiteral("-0.000123457")) + 10);
    }
    for (auto bars :
         {std::pair{expectedView->verticalScrollBar(), actualView->verticalScrollBar()},
          std::pair{expectedView->horizontalScrollBar(), actualView->horizontalScrollBar()}}) {
        connect(bars.first, &QScrollBar::valueChanged, bars.second, &QScrollBar::setValue);
        connect(bars.second, &QScrollBar::valueChanged, bars.first, &QScrollBar::setValue);
    }
    auto* grids = new QWidget;
    auto* gridLayout = new QHBoxLayout(grids);
    gridLayout->setContentsMargins(2, 2, 2, 2);
    for (auto [title, view] :
         {std::pair{tr("Expected"), expectedView}, std::pair{tr("Actual"), actualView}}) {
        auto* column = new QVBoxLayout;
        column->addWidget(new QLabel(title));
        column->addWidget(view);
        gridLayout->addLayout(column);
    }
    return grids;
}

std::vector<std::int64_t> TensorDiffPanel::worstElementAt(int row) const
{
    std::vector<std::int64_t> element;
    if (const QTableWidgetItem* item = m_worst->item(row, 0))
        for (const QVariant& v : item->data(Qt::UserRole).toList())
            element.push_back(v.toLongLong());
    return element;
}

const ErrorHistogram& TensorDiffPanel::histogram() const
{
    return m_histograms[m_relative->isChecked() ? 1 : 0];
}

void TensorDiffPanel::showHistogram()
{
    m_histogramView->setHistogram(histogram());
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
    m_marked = element;
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
    setTitle(tr("%1 (loading…)").arg(title));
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
                loaded.histograms = {errorHistogram(loaded.actual, loaded.expected),
                                     errorHistogram(loaded.actual, loaded.expected, 20, true)};
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
        setTitle(title + QStringLiteral(": ") + loaded.error);
        Q_EMIT outputShown(loaded.error);
        return;
    }
    m_actual = std::move(loaded.actual);
    m_expected = std::move(loaded.expected);
    setTitle(title);
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
    m_marked.clear();
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
    m_histograms = std::move(loaded.histograms);
    showHistogram();
    refresh();
    Q_EMIT outputShown({});
}

void TensorDiffPanel::showMessage(const QString& title, const QString& message,
                                  const QString& stamp)
{
    m_loader.cancel(); // an output still loading would replace the message
    clearData();
    m_stamp->setRun(stamp);
    setTitle(message.isEmpty() ? title : title + QStringLiteral(": ") + message);
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
    setTitle(tr("No output selected"));
}

void TensorDiffPanel::setTitle(const QString& text)
{
    m_title->setText(text);
    m_title->setToolTip(text); // the whole of a title cut at the dock's edge
}

QString TensorDiffPanel::titleText() const
{
    return m_title->text();
}

void TensorDiffPanel::clearData()
{
    m_actual = m_expected = Tensor();
    m_histograms = {};
    showHistogram();
    for (QComboBox* box : {m_rowAxis, m_colAxis}) {
        const QSignalBlocker block(box);
        box->clear();
    }
    m_fixed->clear();
    m_marked.clear();
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
    // The chosen element stays marked across a toggle or another choice of axes while its
    // slice is shown.
    bool inSlice = m_marked.size() == m_actual.shape().size();
    for (std::size_t a = 0; inSlice && m_marked.size() > 2 && a < m_marked.size(); ++a)
        inSlice =
            int(a) == slice.rowAxis || int(a) == slice.colAxis || m_marked[a] == slice.fixed[a];
    if (inSlice && !m_marked.empty()) m_heatmap->markElement(m_marked);
}

} // namespace ptowb
