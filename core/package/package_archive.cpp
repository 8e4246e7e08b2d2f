#include "package/package_archive.h"

#include "digest/sha256.h"
#include "package/package_check.h"

#include <QSaveFile>
#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace ptowb {

namespace fs = std::filesystem;

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

std::string writeReproducibleArchive(const std::string& folder, const std::string& archivePath,
                                     const std::string& topFolder)
{
    const fs::path root = folder;
    const std::string top = topFolder.empty() ? root.filename().string() : topFolder;
    std::vector<std::string> paths; // relative; folders end with '/'
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code e;
        const bool dir = it->is_directory(e);
        if (dir || it->is_regular_file(e))
            paths.push_back(it->path().lexically_relative(root).string() + (dir ? "/" : ""));
    }
    std::sort(paths.begin(), paths.end());

    // QSaveFile: written beside the archive, renamed into place, with a new file's permissions.
    QSaveFile out(QString::fromStdString(archivePath));
    const auto outError = [&out] { return out.errorString().toStdString(); };
    if (!out.open(QIODevice::WriteOnly)) return "cannot write " + archivePath + ": " + outError();
    std::unique_ptr<archive, ArchiveCloser> a(archive_write_new());
    archive_write_set_format_pax_restricted(a.get());
    archive_write_add_filter_gzip(a.get());
    // No timestamp or file name in the gzip header: the same files give the same bytes.
    archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);
    archive_write_set_bytes_in_last_block(a.get(), 1);
    const auto archiveError = [&a] { return std::string(archive_error_string(a.get())); };
    if (archive_write_open2(a.get(), &out, nullptr, writeToSaveFile, nullptr, nullptr) !=
        ARCHIVE_OK)
        return "cannot start " + archivePath + ": " + archiveError();

    auto fail = [&](const std::string& what) {
        out.cancelWriting();
        return what;
    };
    const auto header = [&](const std::string& path, bool dir, std::int64_t size) {
        std::unique_ptr<archive_entry, EntryFree> entry(archive_entry_new());
        archive_entry_set_pathname_utf8(entry.get(), (top + '/' + path).c_str());
        archive_entry_set_filetype(entry.get(), dir ? AE_IFDIR : AE_IFREG);
        archive_entry_set_perm(entry.get(), dir ? 0755 : 0644);
        archive_entry_set_size(entry.get(), dir ? 0 : size);
        archive_entry_set_mtime(entry.get(), 0, 0);
        archive_entry_set_uid(entry.get(), 0);
        archive_entry_set_gid(entry.get(), 0);
        return archive_write_header(a.get(), entry.get()) == ARCHIVE_OK;
    };
    if (!header(std::string(), true, 0)) return fail(archiveError());
    for (const std::string& path : paths) {
        const bool dir = path.back() == '/';
        std::string data;
        if (!dir) {
            std::ifstream in(root / path, std::ios::binary);
            if (!in) return fail("cannot read " + (root / path).string());
            data.assign(std::istreambuf_iterator<char>(in), {});
        }
        if (!header(dir ? path.substr(0, path.size() - 1) : path, dir, std::int64_t(data.size())))
            return fail(archiveError());
        if (!dir &&
            archive_write_data(a.get(), data.data(), data.size()) != la_ssize_t(data.size()))
            return fail(archiveError());
    }
    if (archive_write_close(a.get()) != ARCHIVE_OK) return fail(archiveError());
    if (!out.commit()) return "cannot write " + archivePath + ": " + outError();
    return {};
}

ArchiveContents readPackageArchive(const std::string& archivePath, std::int64_t maxBytes)
{
    ArchiveContents contents;
    std::error_code ec;
    if (fs::is_symlink(archivePath, ec) || !fs::is_regular_file(archivePath, ec)) {
        contents.error = archivePath + " is not a regular file";
        return contents;
    }
    std::unique_ptr<archive, ReaderCloser> a(archive_read_new());
    archive_read_support_filter_gzip(a.get());
    archive_read_support_format_tar(a.get());
    const auto archiveError = [&a] { return std::string(archive_error_string(a.get())); };
    if (archive_read_open_filename(a.get(), archivePath.c_str(), 1 << 16) != ARCHIVE_OK) {
        contents.error = "cannot read " + archivePath + ": " + archiveError();
        return contents;
    }
    std::string top;
    std::int64_t total = 0;
    std::vector<char> buffer(1 << 16);
    archive_entry* entry = nullptr;
    int status = ARCHIVE_OK;
    while ((status = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
        const char* utf8 = archive_entry_pathname_utf8(entry);
        const char* raw = archive_entry_pathname(entry);
        const std::string path = utf8 ? utf8 : raw ? raw : "";
        const std::string first = path.substr(0, path.find('/'));
        if (top.empty()) top = first;
        std::string relative = first.size() < path.size() ? path.substr(first.size() + 1) : "";
        const bool dir = archive_entry_filetype(entry) == AE_IFDIR;
        if (dir && !relative.empty() && relative.back() == '/') relative.pop_back();
        auto unsafe = [&](const std::string& why) { contents.unsafe.push_back(path + ": " + why); };
        if (first != top || (!path.empty() && path.front() == '/')) {
            unsafe("outside the archive's top folder " + top);
            continue;
        }
        if (relative.empty() && dir) continue; // the top folder itself
        if (const std::string problem = packagePathProblem(relative); !problem.empty()) {
            unsafe(problem);
            continue;
        }
        if (archive_entry_hardlink(entry) || archive_entry_symlink(entry) ||
            (!dir && archive_entry_filetype(entry) != AE_IFREG)) {
            unsafe("not a regular file or folder");
            continue;
        }
        if (dir) continue;
        // A sparse entry reads back as its data blocks only, not the holes its size declares:
        // what would be hashed is not what tar would write. Our archives never hold one.
        if (archive_entry_sparse_count(entry) > 0) {
            unsafe("a sparse file");
            continue;
        }
        if (contents.files.count(relative)) {
            unsafe("appears twice");
            continue;
        }
        Sha256 hash;
        const bool isManifest = relative == "manifest.json";
        la_ssize_t n = 0;
        la_int64_t read = 0;
        while ((n = archive_read_data(a.get(), buffer.data(), buffer.size())) > 0) {
            total += n;
            read += n;
            if (total > maxBytes) {
                contents.error =
                    archivePath + " expands to more than " + std::to_string(maxBytes) + " bytes";
                return contents;
            }
            hash.add(std::string_view(buffer.data(), std::size_t(n)));
            if (isManifest) {
                if (contents.manifest.size() + std::size_t(n) > (16 << 20)) {
                    contents.error = "the manifest in " + archivePath + " is larger than 16 MiB";
                    return contents;
                }
                contents.manifest.append(buffer.data(), std::size_t(n));
            }
        }
        if (n < 0) break;
        if (archive_entry_size_is_set(entry) && read != archive_entry_size(entry)) {
            unsafe("declares " + std::to_string(archive_entry_size(entry)) + " bytes but holds " +
                   std::to_string(read));
            continue;
        }
        contents.files.emplace(relative, hash.hex());
    }
    if (status != ARCHIVE_EOF) contents.error = archivePath + " is damaged: " + archiveError();
    return contents;
}

} // namespace ptowb
