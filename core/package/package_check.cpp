#include "package/package_check.h"

#include "io/sha256.h"
#include "package/package_export.h"
#include "project/atomic_file.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>

#include <nlohmann/json.hpp>

namespace ptowb {

PackageCheck checkPackage(const QString& packageFolder)
{
    PackageCheck check;
    const QDir root(packageFolder);
    QByteArray text;
    if (!readTextFile(root.filePath(QString::fromLatin1(kManifestFile)), text, check.error)) return check;
    const auto manifest = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("files") || !manifest["files"].is_object() ||
        manifest.value("format", "") != kPackageFormat) {
        check.error = QStringLiteral("%1 is not a %2 manifest").arg(root.filePath(QString::fromLatin1(kManifestFile)), QString::fromLatin1(kPackageFormat));
        return check;
    }
    const auto& files = manifest["files"];
    for (const auto& [path, hash] : files.items()) {
        const QString name = QString::fromStdString(path);
        QFile file(root.filePath(name));
        if (!file.open(QIODevice::ReadOnly)) {
            check.missing << name;
            continue;
        }
        const QByteArray data = file.readAll();
        if (!hash.is_string() || sha256Hex(std::string_view(data.constData(), std::size_t(data.size()))) != hash.get<std::string>()) check.changed << name;
    }
    QDirIterator it(packageFolder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString name = root.relativeFilePath(it.next());
        if (name != QString::fromLatin1(kManifestFile) && !files.contains(name.toStdString())) check.extra << name;
    }
    check.missing.sort();
    check.changed.sort();
    check.extra.sort();
    return check;
}

} // namespace ptowb
