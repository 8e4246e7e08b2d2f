#include "histogram_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace ptowb {

HistogramView::HistogramView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // Always there, empty without data: a view that appeared with the first result would
    // grow its dock and shrink the editors.
    setFixedHeight(72);
}

void HistogramView::setHistogram(const ErrorHistogram& histogram)
{
    m_histogram = histogram;
    update();
}

QRect HistogramView::barArea() const
{
    return rect().adjusted(2, 2, -2, -fontMetrics().height() - 6);
}

std::vector<std::pair<int, QString>> HistogramView::ticks() const
{
    std::vector<std::pair<int, QString>> out;
    const QRect area = barArea();
    const int bins = int(m_histogram.counts.size());
    if (bins < 3) return out;
    const double width = double(area.width()) / bins;
    const QFontMetrics metrics = fontMetrics();
    int freeFrom = area.left() + metrics.horizontalAdvance(tr("exact")) + 6;
    const int freeTo = area.right() - metrics.horizontalAdvance(tr("NaN/Inf")) - 6;
    // The edge left of bar k is edges[k - 1] (the last, left of NaN/Inf, is the top edge).
    for (int k = 1; k < bins && std::size_t(k - 1) < m_histogram.edges.size(); ++k) {
        const double edge = m_histogram.edges[std::size_t(k - 1)];
        if (std::abs(edge - std::round(edge)) > 1e-9) continue; // half decades: no tick
        const int x = int(area.left() + k * width);
        QString label = QStringLiteral("1e%1").arg(int(std::lround(edge)));
        const int half = metrics.horizontalAdvance(label) / 2 + 3;
        if (x - half < freeFrom || x + half > freeTo)
            label.clear();
        else
            freeFrom = x + half;
        out.emplace_back(x, label);
    }
    return out;
}

int HistogramView::binAt(QPoint position) const
{
    const QRect area = barArea();
    const int bins = int(m_histogram.counts.size());
    if (bins == 0 || position.x() < area.left() || position.x() > area.right()) return -1;
    return std::clamp(int(double(position.x() - area.left()) * bins / std::max(1, area.width())), 0,
                      bins - 1);
}

QString HistogramView::describeBin(std::size_t bin) const
{
    if (bin >= m_histogram.counts.size()) return {};
    const auto count = m_histogram.counts[bin];
    if (bin == 0) return tr("exact: %1").arg(count);
    if (bin + 1 == m_histogram.counts.size()) return tr("NaN/Inf: %1").arg(count);
    return tr("1e%1..1e%2: %3")
        .arg(m_histogram.edges[bin - 1], 0, 'f', 1)
        .arg(m_histogram.edges[bin], 0, 'f', 1)
        .arg(count);
}

QString HistogramView::describeAt(QPoint position) const
{
    const int bin = binAt(position);
    if (bin < 0) return {};
    return (m_histogram.relative ? tr("relative error ") : tr("|actual − expected| ")) +
           describeBin(std::size_t(bin));
}

void HistogramView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QRect area = barArea();
    const int bins = int(m_histogram.counts.size());
    if (bins == 0) return;
    double top = 0;
    for (auto c : m_histogram.counts)
        top = std::max(top, std::log10(1.0 + double(c)));
    const double width = double(area.width()) / bins;
    for (int k = 0; k < bins; ++k) {
        const auto count = m_histogram.counts[std::size_t(k)];
        if (count == 0) continue;
        const double h = top > 0 ? std::log10(1.0 + double(count)) / top * area.height() : 0;
        const QColor colour = k == 0          ? QColor(0x2e, 0x7d, 0x32)
                              : k + 1 == bins ? QColor(0xc6, 0x28, 0x28)
                                              : QColor(0x21, 0x91, 0x8c);
        p.fillRect(
            QRectF(area.left() + k * width + 1, area.bottom() - h, std::max(1.0, width - 2), h),
            colour);
    }
    p.setPen(palette().color(QPalette::Text));
    p.drawLine(area.left(), area.bottom() + 1, area.right(), area.bottom() + 1);
    const int textTop = area.bottom() + 5;
    const int textHeight = fontMetrics().height();
    for (const auto& [x, label] : ticks()) {
        p.drawLine(x, area.bottom() + 1, x, area.bottom() + (label.isEmpty() ? 3 : 5));
        if (!label.isEmpty())
            p.drawText(QRect(x - 40, textTop, 80, textHeight), Qt::AlignHCenter, label);
    }
    p.drawText(QRect(area.left(), textTop, 60, textHeight), Qt::AlignLeft, tr("exact"));
    p.drawText(QRect(area.right() - 60, textTop, 60, textHeight), Qt::AlignRight, tr("NaN/Inf"));
    // The y scale: bars grow with log10(1 + count), the tallest is the largest count.
    std::uint64_t largest = 0;
    for (auto c : m_histogram.counts)
        largest = std::max<std::uint64_t>(largest, std::uint64_t(c));
    p.drawText(QRect(area.left() + 2, area.top(), area.width() / 2, textHeight), Qt::AlignLeft,
               (m_histogram.relative ? tr("relative error, max %1 (log)") : tr("max %1 (log)"))
                   .arg(largest));
}

void HistogramView::mouseMoveEvent(QMouseEvent* event)
{
    const QString text = describeAt(event->position().toPoint());
    setToolTip(text);
    if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ptowb
