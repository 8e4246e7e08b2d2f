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

    // A project is marked while it opens, on disk at once, until its first check has finished:
    // one that took the app down while opening is not reopened at the next start, where it
    // would take it down again.
    static void markOpening(const QString& folder);
    static void clearOpening();
    // The project to reopen at start: the most recent one, unless the last session stopped while
    // opening it; then "" and `skipped` names it. The mark is cleared either way.
    static QString toReopen(QString& skipped);
};

} // namespace ptowb
