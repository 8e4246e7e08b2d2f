#include "package/package_identity.h"

#include "io/sha256.h"
#include "package/package_export.h"
#include "project/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

namespace ptowb {

namespace {

std::string fileSha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray data = file.readAll();
    return sha256Hex(std::string_view(data.constData(), std::size_t(data.size())));
}

} // namespace

std::variant<SpecLoadResult, QString> loadPackageOp(const QString& packageDir)
{
    const QString path = QDir(packageDir).filePath(QStringLiteral("op.json"));
    QByteArray text;
    QString error;
    if (!readTextFile(path, text, error))
        return QStringLiteral("%1 (is %2 an exported package?)").arg(error, packageDir);
    // Kernel and reference are looked up beside it; nothing runs.
    return loadOpSpecText(text.toStdString(), path.toStdString(), "");
}

std::variant<onnxtools::PackageIdentity, QString> readPackageIdentity(const QString& packageDir)
{
    const QDir package(packageDir);
    QByteArray text;
    QString error;
    if (!readTextFile(package.filePath(QString::fromLatin1(kManifestFile)), text, error))
        return error;
    const auto manifest = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (!manifest.is_object())
        return QStringLiteral("%1 is not a JSON object")
            .arg(package.filePath(QString::fromLatin1(kManifestFile)));
    auto field = [&](const char* key) {
        const auto it = manifest.find(key);
        return it != manifest.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    onnxtools::PackageIdentity identity;
    identity.op = field("namespace") + "::" + field("name");
    identity.opJsonSha256 = fileSha256(package.filePath(QStringLiteral("op.json")));
    // The kernel named by the manifest, only inside the package and only a regular file: a
    // manifest is data and must not make this read /dev/zero or a file elsewhere.
    const QString root = QDir::cleanPath(package.absolutePath());
    const QString kernel =
        QDir::cleanPath(package.absoluteFilePath(QString::fromStdString(field("kernel_file"))));
    const QFileInfo kernelInfo(kernel);
    if (!kernel.startsWith(root + QLatin1Char('/')) || kernelInfo.isSymLink() ||
        !kernelInfo.isFile())
        return QStringLiteral("the manifest's kernel_file \"%1\" is no file of the package")
            .arg(QString::fromStdString(field("kernel_file")));
    identity.kernelSha256 = fileSha256(kernel);
    return identity;
}

} // namespace ptowb
