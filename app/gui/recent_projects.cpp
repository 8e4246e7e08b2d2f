#include "recent_projects.h"

#include <QDir>
#include <QSettings>

namespace ptowb {
namespace {
const char* const kKey = "recentProjects";
}

QStringList RecentProjects::list()
{
    return QSettings().value(QLatin1String(kKey)).toStringList();
}

void RecentProjects::add(const QString& folder)
{
    QStringList entries = list();
    const QString clean = QDir::cleanPath(folder);
    entries.removeAll(clean);
    entries.prepend(clean);
    while (entries.size() > kMaxEntries)
        entries.removeLast();
    QSettings().setValue(QLatin1String(kKey), entries);
}

void RecentProjects::remove(const QString& folder)
{
    QStringList entries = list();
    entries.removeAll(QDir::cleanPath(folder));
    QSettings().setValue(QLatin1String(kKey), entries);
}

} // namespace ptowb
