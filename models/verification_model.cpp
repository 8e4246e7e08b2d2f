#include "verification_model.h"

#include "run/reports.h"

#include <QBrush>
#include <QColor>

namespace ptowb {

void VerificationModel::setReport(const VerificationReport& report)
{
    beginResetModel();
    m_report = report;
    m_rows.clear();
    for (std::size_t c = 0; c < m_report.cases.size(); ++c) {
        const auto& outputs = m_report.cases[c].outputs;
        if (!m_report.cases[c].error.empty() || outputs.empty()) m_rows.push_back({c, -1});
        for (std::size_t o = 0; o < outputs.size(); ++o)
            m_rows.push_back({c, int(o)});
        for (std::size_t u = 0; u < m_report.cases[c].unchecked.size(); ++u)
            m_rows.push_back({c, -1, int(u)});
    }
    endResetModel();
}

int VerificationModel::compared() const
{
    int n = 0;
    for (const Row& row : m_rows)
        n += row.uncheckedIndex < 0;
    return n;
}

std::string VerificationModel::uncheckedAt(int row) const
{
    if (row < 0 || row >= int(m_rows.size())) return {};
    const Row& r = m_rows[std::size_t(row)];
    return r.uncheckedIndex < 0
               ? std::string()
               : m_report.cases[r.caseIndex].unchecked[std::size_t(r.uncheckedIndex)];
}

int VerificationModel::failures() const
{
    int n = 0;
    for (int r = 0; r < rowCount(); ++r)
        n += !index(r, 0).data(PassRole).toBool();
    return n;
}

int VerificationModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int VerificationModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerificationModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size())) return {};
    const Row& row = m_rows[std::size_t(index.row())];
    const CaseVerification& c = m_report.cases[row.caseIndex];
    const OutputCheck* check =
        row.outputIndex >= 0 ? &c.outputs[std::size_t(row.outputIndex)] : nullptr;
    // A target without values (pypto-sim) only measured the case: neither pass nor fail.
    const bool measured = !check && c.costOnly && c.error.empty();
    const std::string unchecked = uncheckedAt(index.row());
    const bool pass = (check && check->verdict.pass) || measured || !unchecked.empty();
    if (role == PassRole) return pass;
    if (role == Qt::BackgroundRole && index.column() == VerdictColumn)
        return QBrush(!unchecked.empty() ? QColor(0xe4, 0xe4, 0xe4)
                      : measured         ? QColor(0xd8, 0xe4, 0xf4)
                      : pass             ? QColor(0xc8, 0xf0, 0xc8)
                                         : QColor(0xf8, 0xc8, 0xc8));
    if (role == Qt::TextAlignmentRole && index.column() >= MaxAbsColumn &&
        index.column() <= MismatchColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    const auto number = [](double v) { return QString::number(v, 'g', 4); };
    if (!unchecked.empty()) {
        if (index.column() == CaseColumn) return QString::fromStdString(c.caseName);
        if (index.column() == OutputColumn) return QString::fromStdString(unchecked);
        if (index.column() == VerdictColumn) return tr("SKIP");
        if (index.column() == ReasonColumn)
            return tr("not compared: op.json's case gives it no expected value (its test checked "
                      "none)");
        return {};
    }
    switch (index.column()) {
    case CaseColumn:
        return QString::fromStdString(c.caseName);
    case OutputColumn:
        return check ? QString::fromStdString(check->name) : QStringLiteral("—");
    case VerdictColumn:
        if (measured) return tr("COST");
        return check ? (pass ? tr("PASS") : tr("FAIL")) : tr("ERROR");
    case MaxAbsColumn:
        return check && check->comparison.shapesMatch
                   ? number(check->comparison.metrics.maxAbsError)
                   : QVariant();
    case MaxRelColumn:
        return check && check->comparison.shapesMatch
                   ? number(check->comparison.metrics.maxRelError)
                   : QVariant();
    case CosineColumn:
        return check && check->comparison.shapesMatch ? number(check->comparison.metrics.cosine)
                                                      : QVariant();
    case MismatchColumn:
        return check && check->comparison.shapesMatch
                   ? number(check->comparison.metrics.mismatchRatio)
                   : QVariant();
    case ReasonColumn:
        if (measured) return QString::fromStdString(costOnlyLine(m_report, c));
        if (!check) return QString::fromStdString(c.error);
        return QString::fromStdString(check->verdict.reason + " [" + check->verdict.rule + "]");
    }
    return {};
}

QVariant VerificationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    // Short headers keep the table narrow; the tooltip says what each column is.
    static const char* const kHeaders[] = {"Case",    "Output", "Verdict",  "Max abs",
                                           "Max rel", "Cosine", "Mismatch", "Reason"};
    static const char* const kTips[] = {"The case of op.json",
                                        "The output (or mutated input) compared",
                                        "PASS, FAIL, ERROR (the case could not run), COST "
                                        "(a target without values only measured it) or SKIP "
                                        "(the case checks no value of it)",
                                        "Largest |actual - expected|",
                                        "Largest |actual - expected| / |expected|",
                                        "Cosine similarity of actual and expected",
                                        "Share of elements outside the tolerance",
                                        "Why the verdict is what it is"};
    if (role == Qt::DisplayRole) return tr(kHeaders[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

} // namespace ptowb
