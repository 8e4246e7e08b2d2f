#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace ptowb {

// Writes `folder` as a reproducible .tar.gz: entries sorted by path under a top folder named
// `topFolder` (default: like `folder`), mtime 0, owner 0:0 without names, modes 0644/0755, no
// gzip timestamp or name. The same files give the same bytes. Written to a temporary file,
// then renamed. Returns "" or the error.
QString writeReproducibleArchive(const QString& folder, const QString& archivePath,
                                 const QString& topFolder = {});

// What a package archive holds, read without extracting anything: the sha256 of every regular
// file under the archive's one top folder, manifest.json's bytes, and every entry that is not
// a plain file or folder inside that top folder (links, devices, "..", absolute paths).
struct ArchiveContents
{
    QString error;
    QMap<QString, QString> files; // path below the top folder -> sha256 hex
    QStringList unsafe;           // "path: why"
    QByteArray manifest;
};
ArchiveContents readPackageArchive(const QString& archivePath, qint64 maxBytes);

} // namespace ptowb
