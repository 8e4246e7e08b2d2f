#include "slice_values_model.h"

#include <QBrush>
#include <QColor>
#include <cmath>

namespace ptowb {

void SliceValuesModel::setData(const Tensor& shown, const Tensor& other, const SliceSpec& slice)
{
    beginResetModel();
    m_shown = shown;
    m_other = other;
    m_slice = slice;
    const auto& shape = shown.shape();
    const bool usable =
        shown.shape() == other.shape() &&
        (shape.size() < 2 ||
         (slice.rowAxis >= 0 && slice.colAxis >= 0 && std::size_t(slice.rowAxis) < shape.size() &&
          std::size_t(slice.colAxis) < shape.size() && slice.rowAxis != slice.colAxis));
    m_rows = !usable ? 0 : shape.size() >= 2 ? shape[std::size_t(slice.rowAxis)] : 1;
    m_cols = !usable             ? 0
             : shape.size() >= 2 ? shape[std::size_t(slice.colAxis)]
             : shape.empty()     ? 1
                                 : shape[0];
    endResetModel();
}

void SliceValuesModel::clear()
{
    beginResetModel();
    m_shown = m_other = Tensor();
    m_rows = m_cols = 0;
    endResetModel();
}

int SliceValuesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(std::min<std::int64_t>(m_rows, 1 << 20));
}
int SliceValuesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(std::min<std::int64_t>(m_cols, 1 << 16));
}

QVariant SliceValuesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::BackgroundRole)) return {};
    const auto element = sliceIndex(m_slice, m_shown.shape().size(), index.row(), index.column());
    const std::int64_t k = flatIndex(m_shown.shape(), element);
    if (k < 0 || k >= m_shown.numel()) return {};
    const double v = m_shown.at(k);
    if (role == Qt::DisplayRole) return QString::number(v, 'g', 6);
    const double o = m_other.at(k);
    const bool same = v == o || (std::isnan(v) && std::isnan(o));
    return same ? QVariant() : QBrush(QColor(0xfa, 0xe0, 0xc0));
}

QVariant SliceValuesModel::headerData(int section, Qt::Orientation, int role) const
{
    return role == Qt::DisplayRole ? QVariant(section) : QVariant();
}

} // namespace ptowb
