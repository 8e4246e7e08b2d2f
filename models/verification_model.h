#pragma once

#include "run/verification.h"

#include <QAbstractTableModel>

namespace ptowb {

// One row per case and output of a verification (or one per case that could not be compared,
// and one per result a case leaves unchecked), coloured by verdict: what the Run and Compare dock
// lists.
class VerificationModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        CaseColumn,
        OutputColumn,
        VerdictColumn,
        MaxAbsColumn,
        MaxRelColumn,
        CosineColumn,
        MismatchColumn,
        ReasonColumn,
        ColumnCount
    };
    enum Role
    {
        PassRole = Qt::UserRole + 1
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setReport(const VerificationReport& report);
    const VerificationReport& report() const { return m_report; }
    int failures() const;
    int compared() const; // rows but those of unchecked results
    // The result a row names as not compared (its case's test checked no value), or "".
    std::string uncheckedAt(int row) const;
    // {case index, output index} of a row; the output index is -1 for a case that failed to run.
    std::pair<int, int> rowAt(int row) const
    {
        return {int(m_rows.at(std::size_t(row)).caseIndex),
                m_rows.at(std::size_t(row)).outputIndex};
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        std::size_t caseIndex;
        int outputIndex;         // -1: the case failed before comparison, or a row below
        int uncheckedIndex = -1; // a result of the case's `unchecked`
    };
    VerificationReport m_report;
    std::vector<Row> m_rows;
};

} // namespace ptowb
