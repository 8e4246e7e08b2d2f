#include "package/package_identity.h"

#include "digest/sha256.h"
#include "package/package_export.h"
#include "project/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

namespace ptowb {

namespace {

constexpr qint64 kMaxHashedBytes = qint64(64) << 20; // a kernel or an op.json, generously

// A regular file inside the package (symbolic links resolved, none leaving it), or "" with
// `error` set: a manifest is data, and must not make this read /dev/zero or a file elsewhere.
QString fileInPackage(const QDir& package, const QString& relative, QString& error)
{
    const QString root = QFileInfo(package.absolutePath()).canonicalFilePath();
    const QFileInfo info(package.absoluteFilePath(relative));
    const QString path = info.canonicalFilePath(); // "" when it does not exist
    if (relative.isEmpty() || path.isEmpty() || !path.startsWith(root + QLatin1Char('/')) ||
        !QFileInfo(path).isFile() || info.size() > kMaxHashedBytes) {
        error = QStringLiteral("\"%1\" is no file of the package %2").arg(relative, root);
        return {};
    }
    return path;
}

std::string fileSha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray data = file.read(kMaxHashedBytes);
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
    const QString opJson = fileInPackage(package, QStringLiteral("op.json"), error);
    const QString kernel =
        opJson.isEmpty()
            ? QString()
            : fileInPackage(package, QString::fromStdString(field("kernel_file")), error);
    if (kernel.isEmpty()) return error;
    identity.opJsonSha256 = fileSha256(opJson);
    identity.kernelSha256 = fileSha256(kernel);
    return identity;
}

} // namespace ptowb
