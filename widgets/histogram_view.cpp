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
    setFixedHeight(64);
    hide(); // until there is a histogram to show
}

void HistogramView::setHistogram(const ErrorHistogram& histogram)
{
    m_histogram = histogram;
    setVisible(!m_histogram.counts.empty());
    update();
}

QRect HistogramView::barArea() const
{
    return rect().adjusted(2, 2, -2, -fontMetrics().height() - 2);
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
    return bin < 0 ? QString() : tr("|actual − expected| ") + describeBin(std::size_t(bin));
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
    const int textTop = area.bottom() + 2;
    p.drawText(QRect(area.left(), textTop, 60, fontMetrics().height()), Qt::AlignLeft, tr("exact"));
    p.drawText(QRect(area.center().x() - 60, textTop, 120, fontMetrics().height()),
               Qt::AlignHCenter, tr("1e-8 … 1e2 (log)"));
    p.drawText(QRect(area.right() - 60, textTop, 60, fontMetrics().height()), Qt::AlignRight,
               tr("NaN/Inf"));
}

void HistogramView::mouseMoveEvent(QMouseEvent* event)
{
    const QString text = describeAt(event->position().toPoint());
    setToolTip(text);
    if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace ptowb
