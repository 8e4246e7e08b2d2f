#pragma once

#include <QString>

namespace ptowb {

// Writes `folder` as a reproducible .tar.gz: entries sorted by path under a top folder named
// like `folder`, mtime 0, owner 0:0 without names, modes 0644/0755, no gzip timestamp or
// name. The same files give the same bytes. Written to a temporary file, then renamed.
// Returns "" or the error.
QString writeReproducibleArchive(const QString& folder, const QString& archivePath);

} // namespace ptowb
