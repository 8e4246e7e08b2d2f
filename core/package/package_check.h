#pragma once

#include <QString>
#include <QStringList>

namespace ptowb {

struct PackageCheck
{
    QString error;       // the manifest is missing or unreadable, or the archive is not one
    QStringList missing; // listed in the manifest, not in the package
    QStringList extra;   // in the package, not in the manifest
    QStringList changed; // in the package with another sha256
    QStringList unsafe;  // "path: why" — a manifest path or an entry that leaves the package, a
                         // symbolic link, or something that is not a regular file
    QString manifestSha256; // of manifest.json, to tell whether a folder and an archive agree

    bool ok() const
    {
        return error.isEmpty() && missing.isEmpty() && extra.isEmpty() && changed.isEmpty() &&
               unsafe.isEmpty();
    }
};

// Verifies an exported package — a folder, or a .tar.gz written by export — against its
// manifest: the sha256 of every file, nothing missing, nothing extra. Every path stays inside
// the package: a manifest path with "..", an absolute one, a symbolic link anywhere, a device,
// FIFO or socket, or an archive entry outside its one top folder is unsafe and never opened.
// Reads are bounded: by each regular file's own size, and by kMaxArchiveBytes for an archive.
PackageCheck checkPackage(const QString& packageFolderOrArchive);

// "" when the folder — and the archive, unless `archive` is empty — pass checkPackage and hold
// the same package (the same manifest); otherwise what is wrong, in one line.
QString checkDeployable(const QString& folder, const QString& archive);

// The most an archive may expand to while it is checked (a gzip bomb stops here).
inline constexpr qint64 kMaxArchiveBytes = qint64(16) << 30;

// "" when `path` is a relative path of plain components inside a package; otherwise why not.
QString packagePathProblem(const QString& path);

} // namespace ptowb
