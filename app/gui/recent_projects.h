#pragma once

#include <QStringList>

namespace ptowb {

// The most recently opened project folders, newest first, kept in the user's settings.
class RecentProjects
{
public:
    static constexpr int kMaxEntries = 10;

    static QStringList list();
    static void add(const QString& folder);
    static void remove(const QString& folder);
};

} // namespace ptowb
