#include "line_cost_model.h"

#include "text/duration.h"

#include <QColor>
#include <QLocale>
#include <algorithm>

namespace ptowb {

QString formatMicroseconds(double us)
{
    return QString::fromStdString(formatDuration(us * 1e-6));
}

void LineCostModel::setReport(const cost::CostReport& report, const QStringList& kernelLines)
{
    beginResetModel();
    m_report = report;
    m_source = kernelLines;
    m_lines = report.byLine();
    std::stable_sort(
        m_lines.begin(), m_lines.end(),
        [](const cost::LineCost& a, const cost::LineCost& b) { return a.totalUs > b.totalUs; });
    m_total = 0;
    for (const auto& line : m_lines)
        m_total += line.totalUs;
    endResetModel();
}

void LineCostModel::setPyptoCycles(std::map<int, std::int64_t> cyclesByLine)
{
    m_pypto = std::move(cyclesByLine);
    m_pyptoTotal = 0;
    for (const auto& [line, cycles] : m_pypto)
        m_pyptoTotal += cycles;
    if (!m_lines.empty())
        Q_EMIT dataChanged(index(0, PyptoColumn), index(rowCount() - 1, PyptoColumn));
}

int LineCostModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int LineCostModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LineCostModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const cost::LineCost& line = m_lines[std::size_t(index.row())];
    const double share = m_total > 0 ? line.totalUs / m_total : 0;
    if (role == LineRole) return line.line;
    if (role == ShareRole) return share;
    if (role == Qt::TextAlignmentRole && index.column() != StatementColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) return QString::fromStdString(line.firstOp);
    if (role == Qt::BackgroundRole && index.column() == ShareColumn)
        return QColor::fromHsvF(0.08, std::min(1.0, share * 1.5), 1.0);
    if (role != Qt::DisplayRole) return {};
    auto unit = [&](cost::UnitKind kind) {
        return line.unitUs[int(kind)] > 0 ? formatMicroseconds(line.unitUs[int(kind)]) : QString();
    };
    switch (index.column()) {
    case LineColumn:
        return line.line;
    case StatementColumn:
        return line.line >= 1 && line.line <= m_source.size()
                   ? m_source[line.line - 1].trimmed()
                   : QString::fromStdString(line.firstOp);
    case OpsColumn:
        return line.executions;
    case VectorColumn:
        return unit(cost::UnitKind::Vector);
    case CubeColumn:
        return unit(cost::UnitKind::Cube);
    case MemoryColumn:
        return unit(cost::UnitKind::Memory);
    case TotalColumn:
        return formatMicroseconds(line.totalUs);
    case ShareColumn:
        return QStringLiteral("%1%").arg(share * 100, 0, 'f', 1);
    case PyptoColumn: {
        const auto pypto = m_pypto.find(line.line);
        if (pypto == m_pypto.end() || m_pyptoTotal <= 0) return {};
        return QStringLiteral("%1 (%2%)")
            .arg(QLocale().toString(qlonglong(pypto->second)))
            .arg(100.0 * double(pypto->second) / double(m_pyptoTotal), 0, 'f', 1);
    }
    default:
        return {};
    }
}

QVariant LineCostModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == OpsColumn)
        return tr("Operations the line issued: a line in a loop issues one per iteration");
    if (role == Qt::ToolTipRole && section == PyptoColumn)
        return tr("PyPTO's CostModel (the latest pypto-sim run of this case): the busy cycles of "
                  "every pipe of every core on the tile ops this line made, and their share of "
                  "all the cycles PyPTO attributed to kernel lines");
    if (role != Qt::DisplayRole) return {};
    static const char* const kHeaders[] = {"Line",   "Statement", "Ops",   "Vector", "Cube",
                                           "Memory", "Total",     "Share", "PyPTO"};
    return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

} // namespace ptowb
