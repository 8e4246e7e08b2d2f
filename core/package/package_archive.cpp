#include "package/package_archive.h"

#include "package/package_check.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <archive.h>
#include <archive_entry.h>
#include <memory>

namespace ptowb {

namespace {

struct ArchiveCloser
{
    void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFree
{
    void operator()(archive_entry* e) const { archive_entry_free(e); }
};
struct ReaderCloser
{
    void operator()(archive* a) const { archive_read_free(a); }
};

la_ssize_t writeToSaveFile(archive*, void* client, const void* buffer, size_t length)
{
    auto* file = static_cast<QSaveFile*>(client);
    return file->write(static_cast<const char*>(buffer), qint64(length));
}

} // namespace

QString writeReproducibleArchive(const QString& folder, const QString& archivePath,
                                 const QString& topFolder)
{
    const QDir root(folder);
    const QString top = topFolder.isEmpty() ? QFileInfo(folder).fileName() : topFolder;
    QStringList paths; // relative; folders end with '/'
    QDirIterator it(folder, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        paths << root.relativeFilePath(path) +
                     (it.fileInfo().isDir() ? QStringLiteral("/") : QString());
    }
    paths.sort();

    QSaveFile out(archivePath);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(archivePath, out.errorString());
    std::unique_ptr<archive, ArchiveCloser> a(archive_write_new());
    archive_write_set_format_pax_restricted(a.get());
    archive_write_add_filter_gzip(a.get());
    // No timestamp or file name in the gzip header: the same files give the same bytes.
    archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);
    archive_write_set_bytes_in_last_block(a.get(), 1);
    if (archive_write_open2(a.get(), &out, nullptr, writeToSaveFile, nullptr, nullptr) !=
        ARCHIVE_OK)
        return QStringLiteral("cannot start %1: %2")
            .arg(archivePath, QString::fromUtf8(archive_error_string(a.get())));

    auto fail = [&](const QString& what) {
        out.cancelWriting();
        return what;
    };
    const auto header = [&](const QString& path, bool dir, qint64 size) {
        std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
        archive_entry_set_pathname_utf8(entry.get(),
                                        (top + QLatin1Char('/') + path).toUtf8().constData());
        archive_entry_set_filetype(entry.get(), dir ? AE_IFDIR : AE_IFREG);
        archive_entry_set_perm(entry.get(), dir ? 0755 : 0644);
        archive_entry_set_size(entry.get(), dir ? 0 : size);
        archive_entry_set_mtime(entry.get(), 0, 0);
        archive_entry_set_uid(entry.get(), 0);
        archive_entry_set_gid(entry.get(), 0);
        return archive_write_header(a.get(), entry.get()) == ARCHIVE_OK;
    };
    if (!header(QString(), true, 0)) return fail(QString::fromUtf8(archive_error_string(a.get())));
    for (const QString& path : paths) {
        const bool dir = path.endsWith(QLatin1Char('/'));
        QByteArray data;
        if (!dir) {
            QFile file(root.filePath(path));
            if (!file.open(QIODevice::ReadOnly))
                return fail(QStringLiteral("cannot read %1").arg(file.fileName()));
            data = file.readAll();
        }
        if (!header(dir ? path.chopped(1) : path, dir, data.size()))
            return fail(QString::fromUtf8(archive_error_string(a.get())));
        if (!dir && archive_write_data(a.get(), data.constData(), size_t(data.size())) !=
                        la_ssize_t(data.size()))
            return fail(QString::fromUtf8(archive_error_string(a.get())));
    }
    if (archive_write_close(a.get()) != ARCHIVE_OK)
        return fail(QString::fromUtf8(archive_error_string(a.get())));
    if (!out.commit())
        return QStringLiteral("cannot write %1: %2").arg(archivePath, out.errorString());
    return {};
}

ArchiveContents readPackageArchive(const QString& archivePath, qint64 maxBytes)
{
    ArchiveContents contents;
    const QFileInfo info(archivePath);
    if (info.isSymLink() || !info.isFile()) {
        contents.error = QStringLiteral("%1 is not a regular file").arg(archivePath);
        return contents;
    }
    std::unique_ptr<archive, ReaderCloser> a(archive_read_new());
    archive_read_support_filter_gzip(a.get());
    archive_read_support_format_tar(a.get());
    if (archive_read_open_filename(a.get(), QFile::encodeName(archivePath).constData(), 1 << 16) !=
        ARCHIVE_OK) {
        contents.error = QStringLiteral("cannot read %1: %2")
                             .arg(archivePath, QString::fromUtf8(archive_error_string(a.get())));
        return contents;
    }
    QString top;
    qint64 total = 0;
    std::vector<char> buffer(1 << 16);
    archive_entry* entry = nullptr;
    int status = ARCHIVE_OK;
    while ((status = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
        const char* utf8 = archive_entry_pathname_utf8(entry);
        const QString path =
            utf8 ? QString::fromUtf8(utf8) : QString::fromLocal8Bit(archive_entry_pathname(entry));
        const QString first = path.section(QLatin1Char('/'), 0, 0);
        if (top.isEmpty()) top = first;
        QString relative = path.mid(first.size() + 1);
        const bool dir = archive_entry_filetype(entry) == AE_IFDIR;
        if (dir && relative.endsWith(QLatin1Char('/'))) relative.chop(1);
        auto unsafe = [&](const QString& why) {
            contents.unsafe << QStringLiteral("%1: %2").arg(path, why);
        };
        if (first != top || path.startsWith(QLatin1Char('/'))) {
            unsafe(QStringLiteral("outside the archive's top folder %1").arg(top));
            continue;
        }
        if (relative.isEmpty() && dir) continue; // the top folder itself
        if (const QString problem = packagePathProblem(relative); !problem.isEmpty()) {
            unsafe(problem);
            continue;
        }
        if (archive_entry_hardlink(entry) || archive_entry_symlink(entry) ||
            (!dir && archive_entry_filetype(entry) != AE_IFREG)) {
            unsafe(QStringLiteral("not a regular file or folder"));
            continue;
        }
        if (dir) continue;
        // A sparse entry reads back as its data blocks only, not the holes its size declares:
        // what would be hashed is not what tar would write. Our archives never hold one.
        if (archive_entry_sparse_count(entry) > 0) {
            unsafe(QStringLiteral("a sparse file"));
            continue;
        }
        if (contents.files.contains(relative)) {
            unsafe(QStringLiteral("appears twice"));
            continue;
        }
        QCryptographicHash hash(QCryptographicHash::Sha256);
        const bool isManifest = relative == QLatin1String("manifest.json");
        la_ssize_t n = 0;
        la_int64_t read = 0;
        while ((n = archive_read_data(a.get(), buffer.data(), buffer.size())) > 0) {
            total += n;
            read += n;
            if (total > maxBytes) {
                contents.error = QStringLiteral("%1 expands to more than %2 bytes")
                                     .arg(archivePath)
                                     .arg(maxBytes);
                return contents;
            }
            hash.addData(QByteArrayView(buffer.data(), n));
            if (isManifest) {
                if (contents.manifest.size() + n > (16 << 20)) {
                    contents.error =
                        QStringLiteral("the manifest in %1 is larger than 16 MiB").arg(archivePath);
                    return contents;
                }
                contents.manifest.append(buffer.data(), n);
            }
        }
        if (n < 0) break;
        if (archive_entry_size_is_set(entry) && read != archive_entry_size(entry)) {
            unsafe(QStringLiteral("declares %1 bytes but holds %2")
                       .arg(archive_entry_size(entry))
                       .arg(read));
            continue;
        }
        contents.files.insert(relative, QString::fromLatin1(hash.result().toHex()));
    }
    if (status != ARCHIVE_EOF)
        contents.error = QStringLiteral("%1 is damaged: %2")
                             .arg(archivePath, QString::fromUtf8(archive_error_string(a.get())));
    return contents;
}

} // namespace ptowb
