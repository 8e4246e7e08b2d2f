#pragma once

#include "tensor/error_map.h"

#include <QWidget>

namespace ptowb {

// The error histogram as bars: exact matches, log10 bins, NaN/Inf. Bar heights are on a
// log scale of the count, so a handful of bad elements beside a million good ones still
// shows; hover a bar for its range and count.
class HistogramView : public QWidget
{
    Q_OBJECT

public:
    explicit HistogramView(QWidget* parent = nullptr);

    void setHistogram(const ErrorHistogram& histogram);
    const ErrorHistogram& histogram() const { return m_histogram; }
    // "1e-4..1e-3.5: 22" for the bar under a point, "" elsewhere.
    QString describeAt(QPoint position) const;
    QString describeBin(std::size_t bin) const;
    // The x axis: a tick at every whole decade between the bins, with the labels that fit
    // ("1e-6") — {x, label}, the label empty where it would overlap its neighbour.
    std::vector<std::pair<int, QString>> ticks() const;

    QSize sizeHint() const override { return {320, 72}; }
    QSize minimumSizeHint() const override { return {160, 48}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRect barArea() const;
    int binAt(QPoint position) const;

    ErrorHistogram m_histogram;
};

} // namespace ptowb
