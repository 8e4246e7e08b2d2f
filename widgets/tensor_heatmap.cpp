#include "tensor_heatmap.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace ptowb {

namespace {

constexpr int kLegendGap = 12; // between the map and the colour bar
constexpr int kLegendBar = 16;
constexpr int kLegendText = 4; // between the bar and its labels
// A cell is at most this big: a [1, 1] value is a small square, not the whole pane.
constexpr int kMaxCellPixels = 24;
constexpr int kMinLegendHeight = 80; // room for both of its labels

// A perceptually ordered ramp (dark blue -> teal -> yellow) with a red end for infinite error.
QRgb ramp(double t)
{
    static const QColor kStops[] = {QColor(0x0d, 0x08, 0x87), QColor(0x21, 0x91, 0x8c),
                                    QColor(0x90, 0xd7, 0x43), QColor(0xfd, 0xe7, 0x25)};
    t = std::clamp(t, 0.0, 1.0) * 3;
    const int k = std::min(int(t), 2);
    const double f = t - k;
    const QColor& a = kStops[k];
    const QColor& b = kStops[k + 1];
    return qRgb(int(a.red() + (b.red() - a.red()) * f),
                int(a.green() + (b.green() - a.green()) * f),
                int(a.blue() + (b.blue() - a.blue()) * f));
}

} // namespace

TensorHeatmap::TensorHeatmap(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(200, 120);
}

void TensorHeatmap::setData(const Tensor& actual, const Tensor& expected, const SliceSpec& slice,
                            const ErrorMap& map)
{
    m_actual = actual;
    m_expected = expected;
    m_slice = slice;
    m_map = map;
    m_marked.clear();
    m_valuesOnly = false;
    update();
}

void TensorHeatmap::setValues(const Tensor& value, const SliceSpec& slice,
                              const ErrorMap& magnitude)
{
    setData(value, Tensor(), slice, magnitude);
    m_valuesOnly = true;
}

void TensorHeatmap::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    update();
}

void TensorHeatmap::setLogScale(bool on)
{
    m_log = on;
    update();
}

void TensorHeatmap::markElement(std::vector<std::int64_t> index)
{
    m_marked = std::move(index);
    update();
}

QRgb TensorHeatmap::colour(float error) const
{
    if (!std::isfinite(error)) return qRgb(0xe0, 0x20, 0x20);
    if (m_map.maxError <= 0) return ramp(0);
    if (!m_log) return ramp(double(error) / m_map.maxError);
    // Six decades below the largest error are shown; smaller errors share the darkest colour.
    if (error <= 0) return ramp(0);
    return ramp((std::log10(double(error)) - std::log10(m_map.maxError) + 6) / 6);
}

QImage TensorHeatmap::renderMap(QSize size) const
{
    QImage grid(std::max(m_map.gridCols, 1), std::max(m_map.gridRows, 1), QImage::Format_RGB32);
    grid.fill(palette().color(QPalette::Window));
    for (int r = 0; r < m_map.gridRows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(grid.scanLine(r));
        for (int c = 0; c < m_map.gridCols; ++c)
            line[c] = colour(m_map.cell(r, c));
    }
    return grid.scaled(size, Qt::IgnoreAspectRatio, Qt::FastTransformation);
}

QString TensorHeatmap::topLabel() const
{
    return QString::number(m_map.maxError, 'g', 3);
}

QString TensorHeatmap::bottomLabel() const
{
    return m_log ? QString::number(m_map.maxError * 1e-6, 'g', 2) : QStringLiteral("0");
}

// Wide enough for the labels it shows ("5.96e-08"), which a fixed width cut off.
int TensorHeatmap::legendWidth() const
{
    const QFontMetrics metrics = fontMetrics();
    const int labels =
        std::max({metrics.horizontalAdvance(topLabel()), metrics.horizontalAdvance(bottomLabel()),
                  metrics.horizontalAdvance(tr("log"))});
    return kLegendGap + kLegendBar + kLegendText + labels + 4;
}

QRect TensorHeatmap::mapArea() const
{
    const QRect room = rect().adjusted(4, 4, -legendWidth(), -4);
    if (m_map.gridRows <= 0 || m_map.gridCols <= 0) return room;
    return QRect(room.topLeft(), QSize(std::min(room.width(), m_map.gridCols * kMaxCellPixels),
                                       std::min(room.height(), m_map.gridRows * kMaxCellPixels)));
}

void TensorHeatmap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_map.error.empty() || m_map.cells.empty()) {
        p.drawText(rect(), Qt::AlignCenter,
                   m_map.error.empty()
                       ? (m_placeholder.isEmpty()
                              ? tr("Click a row of Run and Compare to see its error")
                              : m_placeholder)
                       : QString::fromStdString(m_map.error));
        return;
    }
    const QRect area = mapArea();
    p.drawImage(area.topLeft(), renderMap(area.size()));
    if (m_marked.size() >= 1) {
        const std::size_t rank = m_marked.size();
        const std::int64_t row = rank >= 2 ? m_marked[std::size_t(m_slice.rowAxis)] : 0;
        const std::int64_t col = rank >= 2 ? m_marked[std::size_t(m_slice.colAxis)] : m_marked[0];
        const double x = area.left() + (double(col) + 0.5) * area.width() / double(m_map.cols);
        const double y = area.top() + (double(row) + 0.5) * area.height() / double(m_map.rows);
        p.setPen(QPen(Qt::red, 2));
        p.drawEllipse(QPointF(x, y), 7, 7);
    }
    // Legend: the colour scale with its ends labelled.
    const QRect legend(area.right() + kLegendGap, area.top(), kLegendBar,
                       std::max(area.height(), std::min(kMinLegendHeight, rect().height() - 8)));
    for (int y = 0; y < legend.height(); ++y) {
        const double t = 1.0 - double(y) / std::max(1, legend.height() - 1);
        p.setPen(QColor(ramp(t)));
        p.drawLine(legend.left(), legend.top() + y, legend.right(), legend.top() + y);
    }
    p.setPen(palette().color(QPalette::Text));
    const int textHeight = fontMetrics().height();
    const int textLeft = legend.right() + 1 + kLegendText;
    const int textWidth = rect().right() - textLeft;
    p.drawText(QRect(textLeft, legend.top(), textWidth, textHeight), Qt::AlignLeft, topLabel());
    p.drawText(QRect(textLeft, legend.bottom() + 1 - textHeight, textWidth, textHeight),
               Qt::AlignLeft, bottomLabel());
    if (m_log)
        p.drawText(QRect(textLeft, legend.center().y() - textHeight / 2, textWidth, textHeight),
                   Qt::AlignLeft, tr("log"));
}

QString TensorHeatmap::describeAt(QPoint position) const
{
    const QRect area = mapArea();
    if (m_map.cells.empty() || !area.contains(position)) return {};
    const std::int64_t row =
        std::min<std::int64_t>(m_map.rows - 1, std::int64_t(double(position.y() - area.top()) *
                                                            double(m_map.rows) / area.height()));
    const std::int64_t col =
        std::min<std::int64_t>(m_map.cols - 1, std::int64_t(double(position.x() - area.left()) *
                                                            double(m_map.cols) / area.width()));
    const auto index = sliceIndex(m_slice, m_actual.shape().size(), row, col);
    const std::int64_t k = flatIndex(m_actual.shape(), index);
    QStringList parts;
    for (auto i : index)
        parts << QString::number(i);
    if (m_valuesOnly) {
        QString text =
            tr("[%1]  %2").arg(parts.join(QStringLiteral(", "))).arg(m_actual.at(k), 0, 'g', 7);
        if (m_map.cellRows > 1 || m_map.cellCols > 1)
            text += tr("  (cell of %1 x %2: max |value| %3)")
                        .arg(m_map.cellRows)
                        .arg(m_map.cellCols)
                        .arg(m_map.cell(int(row / m_map.cellRows), int(col / m_map.cellCols)), 0,
                             'g', 4);
        return text;
    }
    const double a = m_actual.at(k), e = m_expected.at(k);
    QString text = tr("[%1]  expected %2  actual %3  error %4")
                       .arg(parts.join(QStringLiteral(", ")))
                       .arg(e, 0, 'g', 7)
                       .arg(a, 0, 'g', 7)
                       .arg(std::fabs(a - e), 0, 'g', 4);
    if (m_map.cellRows > 1 || m_map.cellCols > 1)
        text +=
            tr("  (cell of %1 x %2: max error %3)")
                .arg(m_map.cellRows)
                .arg(m_map.cellCols)
                .arg(m_map.cell(int(row / m_map.cellRows), int(col / m_map.cellCols)), 0, 'g', 4);
    return text;
}

void TensorHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    const QString text = describeAt(event->position().toPoint());
    if (text.isEmpty()) return;
    setToolTip(text);
    Q_EMIT hovered(text);
}

} // namespace ptowb
