#include "digest/sha256.h"

#include <QCryptographicHash>

namespace ptowb {

std::string sha256Hex(std::string_view bytes)
{
    return QCryptographicHash::hash(QByteArrayView(bytes.data(), qsizetype(bytes.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

} // namespace ptowb
