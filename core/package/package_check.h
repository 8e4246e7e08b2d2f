#pragma once

#include <QString>
#include <QStringList>

namespace ptowb {

struct PackageCheck
{
    QString error;        // the manifest is missing or unreadable
    QStringList missing;  // listed in the manifest, not on disk
    QStringList extra;    // on disk, not in the manifest
    QStringList changed;  // on disk with another sha256

    bool ok() const { return error.isEmpty() && missing.isEmpty() && extra.isEmpty() && changed.isEmpty(); }
};

// Recomputes the sha256 of every file of an exported package against its manifest.
PackageCheck checkPackage(const QString& packageFolder);

} // namespace ptowb
