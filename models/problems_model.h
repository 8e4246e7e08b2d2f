#pragma once

#include "diag/diagnostic.h"

#include <QAbstractTableModel>

namespace ptowb {

// The Problems list: one row per diagnostic, errors first, then by file and position.
class ProblemsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        SeverityColumn,
        MessageColumn,
        LocationColumn,
        ColumnCount
    };
    enum Role
    {
        FileRole = Qt::UserRole + 1,
        LineRole,
        ColumnRole,
        CodeRole
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setDiagnostics(Diagnostics diagnostics);
    const Diagnostic& diagnosticAt(int row) const { return m_rows.at(std::size_t(row)); }
    int errorCount() const;
    int warningCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    Diagnostics m_rows;
};

} // namespace ptowb
