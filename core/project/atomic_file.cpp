#include "project/atomic_file.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace ptowb {

QString writeFileAtomically(const QString& path, const QByteArray& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    if (file.write(data) != data.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(path, why);
    }
    if (!file.commit()) return QStringLiteral("cannot save %1: %2").arg(path, file.errorString());
    return {};
}

bool readTextFile(const QString& path, QByteArray& data, QString& error, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > maxBytes) {
        error = QStringLiteral("%1 is %2 bytes; at most %3 bytes are opened")
                    .arg(path)
                    .arg(file.size())
                    .arg(maxBytes);
        return false;
    }
    data = file.readAll();
    return true;
}

} // namespace ptowb
