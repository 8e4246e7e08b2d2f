#include "package/package_archive.h"

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

la_ssize_t writeToSaveFile(archive*, void* client, const void* buffer, size_t length)
{
    auto* file = static_cast<QSaveFile*>(client);
    return file->write(static_cast<const char*>(buffer), qint64(length));
}

} // namespace

QString writeReproducibleArchive(const QString& folder, const QString& archivePath)
{
    const QDir root(folder);
    const QString top = QFileInfo(folder).fileName();
    QStringList paths; // relative; folders end with '/'
    QDirIterator it(folder, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        paths << root.relativeFilePath(path) + (it.fileInfo().isDir() ? QStringLiteral("/") : QString());
    }
    paths.sort();

    QSaveFile out(archivePath);
    if (!out.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write %1: %2").arg(archivePath, out.errorString());
    std::unique_ptr<archive, ArchiveCloser> a(archive_write_new());
    archive_write_set_format_pax_restricted(a.get());
    archive_write_add_filter_gzip(a.get());
    // No timestamp or file name in the gzip header: the same files give the same bytes.
    archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);
    archive_write_set_bytes_in_last_block(a.get(), 1);
    if (archive_write_open2(a.get(), &out, nullptr, writeToSaveFile, nullptr, nullptr) != ARCHIVE_OK)
        return QStringLiteral("cannot start %1: %2").arg(archivePath, QString::fromUtf8(archive_error_string(a.get())));

    auto fail = [&](const QString& what) {
        out.cancelWriting();
        return what;
    };
    const auto header = [&](const QString& path, bool dir, qint64 size) {
        std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
        archive_entry_set_pathname_utf8(entry.get(), (top + QLatin1Char('/') + path).toUtf8().constData());
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
            if (!file.open(QIODevice::ReadOnly)) return fail(QStringLiteral("cannot read %1").arg(file.fileName()));
            data = file.readAll();
        }
        if (!header(dir ? path.chopped(1) : path, dir, data.size())) return fail(QString::fromUtf8(archive_error_string(a.get())));
        if (!dir && archive_write_data(a.get(), data.constData(), size_t(data.size())) != la_ssize_t(data.size()))
            return fail(QString::fromUtf8(archive_error_string(a.get())));
    }
    if (archive_write_close(a.get()) != ARCHIVE_OK) return fail(QString::fromUtf8(archive_error_string(a.get())));
    if (!out.commit()) return QStringLiteral("cannot write %1: %2").arg(archivePath, out.errorString());
    return {};
}

} // namespace ptowb
