#include "recent_projects.h"

#include <QDir>
#include <QSettings>

namespace ptowb {
namespace {
const char* const kKey = "recentProjects";
const char* const kOpeningKey = "startup/openingProject";
} // namespace

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

void RecentProjects::markOpening(const QString& folder)
{
    QSettings settings;
    settings.setValue(QLatin1String(kOpeningKey), QDir::cleanPath(folder));
    settings.sync(); // a crash right after must find it
}

void RecentProjects::clearOpening()
{
    QSettings settings;
    settings.remove(QLatin1String(kOpeningKey));
    settings.sync();
}

QString RecentProjects::toReopen(QString& skipped)
{
    const QString interrupted = QSettings().value(QLatin1String(kOpeningKey)).toString();
    clearOpening();
    const QStringList recent = list();
    if (recent.isEmpty()) return {};
    if (!interrupted.isEmpty() && QDir::cleanPath(recent.first()) == interrupted) {
        skipped = interrupted;
        return {};
    }
    return recent.first();
}

} // namespace ptowb
