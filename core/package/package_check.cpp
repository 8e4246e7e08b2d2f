#include "package/package_check.h"

#include "package/package_archive.h"
#include "package/package_export.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

constexpr qint64 kMaxManifestBytes = 16 << 20;

// Opens a regular file, never following a symbolic link and never blocking on a FIFO.
int openRegular(const fs::path& path, QString& why)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        why = errno == ELOOP ? QStringLiteral("a symbolic link")
                             : QString::fromLocal8Bit(std::strerror(errno));
        return -1;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        why = QStringLiteral("not a regular file");
        return -1;
    }
    return fd;
}

// The sha256 of an open file, reading no more than the size it had when opened.
QString hashOf(int fd, QByteArray* keep = nullptr)
{
    struct stat st
    {
    };
    ::fstat(fd, &st);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(1 << 16);
    qint64 left = st.st_size;
    while (left > 0) {
        const ssize_t n =
            ::read(fd, buffer.data(), std::size_t(std::min<qint64>(left, qint64(buffer.size()))));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        hash.addData(QByteArrayView(buffer.data(), n));
        if (keep) keep->append(buffer.data(), n);
        left -= n;
    }
    return QString::fromLatin1(hash.result().toHex());
}

// Every component from the package root down to `relative` must be a real folder (or, last,
// a file): a symbolic link on the way could lead anywhere.
QString symlinkOnTheWay(const fs::path& root, const QString& relative)
{
    fs::path at = root;
    for (const QString& part : relative.split(QLatin1Char('/'))) {
        at /= part.toStdString();
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(at, ec)))
            return at == root / relative.toStdString()
                       ? QStringLiteral("a symbolic link")
                       : QStringLiteral("%1 is a symbolic link")
                             .arg(QString::fromStdString(fs::relative(at, root, ec).string()));
    }
    return {};
}

void compareWithManifest(PackageCheck& check, const QByteArray& manifestText, const QString& where,
                         const QMap<QString, QString>& found,
                         const std::function<QString(const QString&, QString&)>& hashOfListed)
{
    check.manifestSha256 = QString::fromLatin1(
        QCryptographicHash::hash(manifestText, QCryptographicHash::Sha256).toHex());
    const auto manifest = nlohmann::json::parse(manifestText.toStdString(), nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("files") ||
        !manifest["files"].is_object() || manifest.value("format", "") != kPackageFormat) {
        check.error = QStringLiteral("%1 is not a %2 manifest")
                          .arg(where, QString::fromLatin1(kPackageFormat));
        return;
    }
    const auto& files = manifest["files"];
    for (const auto& [path, hash] : files.items()) {
        const QString name = QString::fromStdString(path);
        if (const QString problem = packagePathProblem(name);
            !problem.isEmpty() || name == QLatin1String(kManifestFile)) {
            check.unsafe << QStringLiteral("%1: %2").arg(
                name,
                problem.isEmpty() ? QStringLiteral("the manifest cannot list itself") : problem);
            continue;
        }
        QString why;
        const QString actual = hashOfListed(name, why);
        if (!why.isEmpty()) {
            (why == QLatin1String("missing") ? check.missing : check.unsafe)
                << (why == QLatin1String("missing") ? name : name + QStringLiteral(": ") + why);
            continue;
        }
        if (!hash.is_string() || actual != QString::fromStdString(hash.get<std::string>()))
            check.changed << name;
    }
    for (auto it = found.begin(); it != found.end(); ++it)
        if (it.key() != QLatin1String(kManifestFile) && !files.contains(it.key().toStdString()))
            check.extra << it.key();
}

PackageCheck checkFolder(const QString& folder)
{
    PackageCheck check;
    // Absolute, so that a relative package path names files the same way the manifest does.
    const fs::path root = fs::absolute(fs::path(folder.toStdString())).lexically_normal();
    QMap<QString, QString> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const QString name =
            QString::fromStdString(fs::relative(it->path(), root, ec).generic_string());
        const fs::file_status status = it->symlink_status(ec);
        if (fs::is_symlink(status))
            check.unsafe << name + QStringLiteral(": a symbolic link");
        else if (fs::is_regular_file(status))
            found.insert(name, QString());
        else if (!fs::is_directory(status))
            check.unsafe << name + QStringLiteral(": not a regular file");
    }
    if (ec) {
        check.error =
            QStringLiteral("cannot read %1: %2").arg(folder, QString::fromStdString(ec.message()));
        return check;
    }
    QString why;
    const int manifestFd = openRegular(root / kManifestFile, why);
    if (manifestFd < 0) {
        check.error = QStringLiteral("%1: %2").arg(
            QString::fromStdString((root / kManifestFile).string()), why);
        return check;
    }
    QByteArray manifestText;
    struct stat st
    {
    };
    ::fstat(manifestFd, &st);
    if (st.st_size > kMaxManifestBytes) {
        ::close(manifestFd);
        check.error = QStringLiteral("%1 is larger than 16 MiB")
                          .arg(QString::fromStdString((root / kManifestFile).string()));
        return check;
    }
    hashOf(manifestFd, &manifestText);
    ::close(manifestFd);
    compareWithManifest(check, manifestText,
                        QString::fromStdString((root / kManifestFile).string()), found,
                        [&](const QString& name, QString& problem) {
                            if (problem = symlinkOnTheWay(root, name); !problem.isEmpty())
                                return QString();
                            std::error_code e;
                            if (!fs::exists(fs::symlink_status(root / name.toStdString(), e))) {
                                problem = QStringLiteral("missing");
                                return QString();
                            }
                            const int fd = openRegular(root / name.toStdString(), problem);
                            if (fd < 0) return QString();
                            const QString hash = hashOf(fd);
                            ::close(fd);
                            return hash;
                        });
    return check;
}

PackageCheck checkArchive(const QString& archivePath)
{
    PackageCheck check;
    const ArchiveContents contents = readPackageArchive(archivePath, kMaxArchiveBytes);
    if (!contents.error.isEmpty()) {
        check.error = contents.error;
        return check;
    }
    check.unsafe = contents.unsafe;
    if (!contents.files.contains(QLatin1String(kManifestFile))) {
        check.error =
            QStringLiteral("%1 holds no %2").arg(archivePath, QLatin1String(kManifestFile));
        return check;
    }
    compareWithManifest(check, contents.manifest,
                        archivePath + QStringLiteral(":") + QLatin1String(kManifestFile),
                        contents.files, [&](const QString& name, QString& problem) {
                            if (!contents.files.contains(name)) problem = QStringLiteral("missing");
                            return contents.files.value(name);
                        });
    return check;
}

} // namespace

QString packagePathProblem(const QString& path)
{
    if (path.isEmpty()) return QStringLiteral("an empty path");
    if (path.startsWith(QLatin1Char('/')) || path.contains(QLatin1Char('\\')) ||
        path.contains(QChar(0)))
        return QStringLiteral("not a relative path inside the package");
    for (const QString& part : path.split(QLatin1Char('/')))
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return QStringLiteral("leaves the package or is not a plain path");
    return {};
}

PackageCheck checkPackage(const QString& packageFolderOrArchive)
{
    const QFileInfo info(packageFolderOrArchive);
    PackageCheck check;
    if (info.isSymLink())
        check.error = QStringLiteral("%1 is a symbolic link; name the package itself")
                          .arg(packageFolderOrArchive);
    else if (info.isDir())
        check = checkFolder(packageFolderOrArchive);
    else if (info.exists())
        check = checkArchive(packageFolderOrArchive);
    else
        check.error = QStringLiteral("%1 does not exist").arg(packageFolderOrArchive);
    for (QStringList* list : {&check.missing, &check.changed, &check.extra, &check.unsafe}) {
        list->sort();
        list->removeDuplicates();
    }
    return check;
}

QString checkDeployable(const QString& folder, const QString& archive)
{
    auto summary = [](const QString& what, const PackageCheck& check) {
        if (!check.error.isEmpty()) return check.error;
        QStringList problems;
        for (const auto& [label, list] : {std::pair{"missing", &check.missing},
                                          {"changed", &check.changed},
                                          {"extra", &check.extra},
                                          {"unsafe", &check.unsafe}})
            for (const QString& entry : *list)
                problems << QStringLiteral("%1: %2").arg(QLatin1String(label), entry);
        return QStringLiteral("%1 does not match its manifest (%2)")
            .arg(what, problems.join(QStringLiteral("; ")));
    };
    const PackageCheck onDisk = checkPackage(folder);
    if (!onDisk.ok()) return summary(folder, onDisk);
    if (archive.isEmpty()) return {};
    const PackageCheck packed = checkPackage(archive);
    if (!packed.ok()) return summary(archive, packed);
    if (packed.manifestSha256 != onDisk.manifestSha256)
        return QStringLiteral("%1 holds another package than %2").arg(archive, folder);
    return {};
}

} // namespace ptowb
