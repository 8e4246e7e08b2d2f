#pragma once

#include "tensor/error_map.h"

#include <QImage>
#include <QWidget>

namespace ptowb {

// The error of an output over a 2-D slice as a heatmap with a colour scale: linear or log,
// max-pooled cells for large tensors, hover for index / expected / actual / error, and a
// marker on the element it was centred on.
class TensorHeatmap : public QWidget
{
    Q_OBJECT

public:
    explicit TensorHeatmap(QWidget* parent = nullptr);

    void setData(const Tensor& actual, const Tensor& expected, const SliceSpec& slice,
                 const ErrorMap& map);
    // One tensor's |value| (an intermediate of the kernel): hover shows the value itself.
    void setValues(const Tensor& value, const SliceSpec& slice, const ErrorMap& magnitude);
    void setPlaceholder(const QString& text);
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    const ErrorMap& map() const { return m_map; }
    void markElement(std::vector<std::int64_t> index);
    const std::vector<std::int64_t>& markedElement() const { return m_marked; }

    // The map drawn into an image of the given size (what paintEvent shows, minus the legend).
    QImage renderMap(QSize size) const;
    // Text for the element under a point of the map area, "" outside it.
    QString describeAt(QPoint position) const;

    QSize sizeHint() const override { return {480, 320}; }

Q_SIGNALS:
    void hovered(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRect mapArea() const;
    QRgb colour(float error) const;
    // The colour scale's end labels, and the room the scale takes right of the map with them.
    QString topLabel() const;
    QString bottomLabel() const;
    int legendWidth() const;

    Tensor m_actual, m_expected;
    SliceSpec m_slice;
    ErrorMap m_map;
    bool m_log = false;
    bool m_valuesOnly = false;
    QString m_placeholder;
    std::vector<std::int64_t> m_marked;
};

} // namespace ptowb
