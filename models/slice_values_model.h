#pragma once

#include "tensor/error_map.h"

#include <QAbstractTableModel>

namespace ptowb {

// The values of one tensor over a 2-D slice (rows x cols of the slice), for the Tensor diff's
// expected and actual grids; cells whose error is non-zero are tinted.
class SliceValuesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    using QAbstractTableModel::QAbstractTableModel;

    void clear(); // no tensor: no rows
    void setData(const Tensor& shown, const Tensor& other, const SliceSpec& slice);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    Tensor m_shown, m_other;
    SliceSpec m_slice;
    std::int64_t m_rows = 0, m_cols = 0;
};

} // namespace ptowb
