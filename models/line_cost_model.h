#pragma once

#include "cost/cost_model.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <cstdint>
#include <map>

namespace ptowb {

// The simulator's cost estimate per kernel line, most expensive first: what the Cost/trace
// dock lists. ShareRole gives a line's share of the total (0..1); the share column is tinted by it.
// Beside it, when a pypto-sim run of the same case mapped its cycles to kernel lines, PyPTO's
// busy cycles of the line and their share of PyPTO's mapped total.
class LineCostModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        LineColumn,
        StatementColumn,
        OpsColumn,
        VectorColumn,
        CubeColumn,
        MemoryColumn,
        TotalColumn,
        ShareColumn,
        PyptoColumn,
        ColumnCount
    };
    enum Role
    {
        LineRole = Qt::UserRole + 1,
        ShareRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    // `kernelLines` are the kernel's source lines, for the statement column.
    void setReport(const cost::CostReport& report, const QStringList& kernelLines);
    // PyPTO's busy cycles per kernel line (empty: no pypto-sim run, the column stays blank).
    void setPyptoCycles(std::map<int, std::int64_t> cyclesByLine);
    const cost::CostReport& report() const { return m_report; }
    double totalUs() const { return m_total; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    cost::CostReport m_report;
    std::vector<cost::LineCost> m_lines;
    QStringList m_source;
    double m_total = 0;
    std::map<int, std::int64_t> m_pypto;
    std::int64_t m_pyptoTotal = 0;
};

// "12.3 µs" / "850 ns": one way to print an estimate everywhere in the app.
QString formatMicroseconds(double us);

} // namespace ptowb
