#include "problems_model.h"

#include <QFileInfo>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <algorithm>

namespace ptowb {
namespace {

// The icon theme's message-box icon, which is what a style shows on a themed desktop; where the
// theme has none, a dot in the severity's colour. Drawn here, not asked of a QStyle: the model
// links Qt Gui alone.
QIcon severityIcon(Severity severity)
{
    const bool error = severity == Severity::Error;
    const QString themed =
        error ? QStringLiteral("dialog-error") : QStringLiteral("dialog-warning");
    if (QIcon::hasThemeIcon(themed)) return QIcon::fromTheme(themed);
    QPixmap dot(16, 16);
    dot.fill(Qt::transparent);
    QPainter painter(&dot);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(error ? QColor(0xd3, 0x2f, 0x2f) : QColor(0xf5, 0xa6, 0x23));
    painter.drawEllipse(QRectF(2, 2, 12, 12));
    return QIcon(dot);
}

} // namespace

void ProblemsModel::setDiagnostics(Diagnostics diagnostics)
{
    std::stable_sort(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         if (a.severity != b.severity) return a.severity < b.severity;
                         if (a.file != b.file) return a.file < b.file;
                         if (a.line != b.line) return a.line < b.line;
                         return a.col < b.col;
                     });
    beginResetModel();
    m_rows = std::move(diagnostics);
    endResetModel();
}

int ProblemsModel::errorCount() const
{
    return countErrors(m_rows);
}
int ProblemsModel::warningCount() const
{
    return int(m_rows.size()) - errorCount();
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Diagnostic& d = m_rows[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromLatin1(severityName(d.severity));
        case MessageColumn:
            return QString::fromStdString(d.message);
        case LocationColumn: {
            const QString file = QFileInfo(QString::fromStdString(d.file)).fileName();
            return d.line > 0 ? QStringLiteral("%1:%2:%3").arg(file).arg(d.line).arg(d.col) : file;
        }
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() != SeverityColumn) return {};
        return severityIcon(d.severity);
    case Qt::ToolTipRole:
        return QString::fromStdString(formatDiagnostic(d));
    case FileRole:
        return QString::fromStdString(d.file);
    case LineRole:
        return d.line;
    case ColumnRole:
        return d.col;
    case CodeRole:
        return QString::fromStdString(d.code);
    }
    return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case MessageColumn:
        return tr("Message");
    case LocationColumn:
        return tr("Location");
    }
    return {};
}

} // namespace ptowb
