#pragma once

#include <QByteArray>
#include <QString>

namespace ptowb {

// Writes the whole file or nothing: the data goes to a temporary file that replaces the
// target only once it is complete, so a full disk or a crash never leaves half a file.
// Returns an empty string on success, otherwise what went wrong.
QString writeFileAtomically(const QString& path, const QByteArray& data);

// Reads a text file of at most maxBytes; returns false and sets error otherwise.
bool readTextFile(const QString& path, QByteArray& data, QString& error,
                  qint64 maxBytes = 16 << 20);

} // namespace ptowb
