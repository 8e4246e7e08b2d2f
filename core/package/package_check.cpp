#include "package/package_check.h"

#include "digest/sha256.h"
#include "package/package_archive.h"
#include "package/package_export.h"

#include <algorithm>
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

constexpr std::int64_t kMaxManifestBytes = 16 << 20;

// Opens a regular file, never following a symbolic link and never blocking on a FIFO.
int openRegular(const fs::path& path, std::string& why)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        why = errno == ELOOP ? "a symbolic link" : std::strerror(errno);
        return -1;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        why = "not a regular file";
        return -1;
    }
    return fd;
}

// The sha256 of an open file, reading no more than the size it had when opened.
std::string hashOf(int fd, std::string* keep = nullptr)
{
    struct stat st
    {
    };
    ::fstat(fd, &st);
    Sha256 hash;
    std::vector<char> buffer(1 << 16);
    std::int64_t left = st.st_size;
    while (left > 0) {
        const ssize_t n =
            ::read(fd, buffer.data(),
                   std::size_t(std::min<std::int64_t>(left, std::int64_t(buffer.size()))));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        hash.add(std::string_view(buffer.data(), std::size_t(n)));
        if (keep) keep->append(buffer.data(), std::size_t(n));
        left -= n;
    }
    return hash.hex();
}

std::vector<std::string> pathParts(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1)
        parts.push_back(path.substr(start, slash - start));
    parts.push_back(path.substr(start));
    return parts;
}

// Every component from the package root down to `relative` must be a real folder (or, last,
// a file): a symbolic link on the way could lead anywhere.
std::string symlinkOnTheWay(const fs::path& root, const std::string& relative)
{
    fs::path at = root;
    for (const std::string& part : pathParts(relative)) {
        at /= part;
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(at, ec)))
            return at == root / relative
                       ? "a symbolic link"
                       : fs::relative(at, root, ec).string() + " is a symbolic link";
    }
    return {};
}

void compareWithManifest(
    PackageCheck& check, const std::string& manifestText, const std::string& where,
    const std::map<std::string, std::string>& found,
    const std::function<std::string(const std::string&, std::string&)>& hashOfListed)
{
    check.manifestSha256 = sha256Hex(manifestText);
    const auto manifest = nlohmann::json::parse(manifestText, nullptr, false);
    if (manifest.is_discarded() || !manifest.is_object() || !manifest.contains("files") ||
        !manifest["files"].is_object() || manifest.value("format", "") != kPackageFormat) {
        check.error = where + " is not a " + kPackageFormat + " manifest";
        return;
    }
    const auto& files = manifest["files"];
    for (const auto& [name, hash] : files.items()) {
        if (const std::string problem = packagePathProblem(name);
            !problem.empty() || name == kManifestFile) {
            check.unsafe.push_back(name + ": " +
                                   (problem.empty() ? "the manifest cannot list itself" : problem));
            continue;
        }
        std::string why;
        const std::string actual = hashOfListed(name, why);
        if (why == "missing") {
            check.missing.push_back(name);
            continue;
        }
        if (!why.empty()) {
            check.unsafe.push_back(name + ": " + why);
            continue;
        }
        if (!hash.is_string() || actual != hash.get<std::string>()) check.changed.push_back(name);
    }
    for (const auto& [name, hash] : found)
        if (name != kManifestFile && !files.contains(name)) check.extra.push_back(name);
}

PackageCheck checkFolder(const std::string& folder)
{
    PackageCheck check;
    // Absolute, so that a relative package path names files the same way the manifest does.
    const fs::path root = fs::absolute(fs::path(folder)).lexically_normal();
    std::map<std::string, std::string> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const std::string name = fs::relative(it->path(), root, ec).generic_string();
        const fs::file_status status = it->symlink_status(ec);
        if (fs::is_symlink(status))
            check.unsafe.push_back(name + ": a symbolic link");
        else if (fs::is_regular_file(status))
            found.emplace(name, std::string());
        else if (!fs::is_directory(status))
            check.unsafe.push_back(name + ": not a regular file");
    }
    if (ec) {
        check.error = "cannot read " + folder + ": " + ec.message();
        return check;
    }
    const std::string manifestPath = (root / kManifestFile).string();
    std::string why;
    const int manifestFd = openRegular(manifestPath, why);
    if (manifestFd < 0) {
        check.error = manifestPath + ": " + why;
        return check;
    }
    std::string manifestText;
    struct stat st
    {
    };
    ::fstat(manifestFd, &st);
    if (st.st_size > kMaxManifestBytes) {
        ::close(manifestFd);
        check.error = manifestPath + " is larger than 16 MiB";
        return check;
    }
    hashOf(manifestFd, &manifestText);
    ::close(manifestFd);
    compareWithManifest(check, manifestText, manifestPath, found,
                        [&](const std::string& name, std::string& problem) {
                            if (problem = symlinkOnTheWay(root, name); !problem.empty())
                                return std::string();
                            std::error_code e;
                            if (!fs::exists(fs::symlink_status(root / name, e))) {
                                problem = "missing";
                                return std::string();
                            }
                            const int fd = openRegular(root / name, problem);
                            if (fd < 0) return std::string();
                            std::string hash = hashOf(fd);
                            ::close(fd);
                            return hash;
                        });
    return check;
}

PackageCheck checkArchive(const std::string& archivePath)
{
    PackageCheck check;
    const ArchiveContents contents = readPackageArchive(archivePath, kMaxArchiveBytes);
    if (!contents.error.empty()) {
        check.error = contents.error;
        return check;
    }
    check.unsafe = contents.unsafe;
    if (!contents.files.count(kManifestFile)) {
        check.error = archivePath + " holds no " + kManifestFile;
        return check;
    }
    compareWithManifest(check, contents.manifest, archivePath + ":" + kManifestFile, contents.files,
                        [&](const std::string& name, std::string& problem) {
                            const auto it = contents.files.find(name);
                            if (it == contents.files.end()) {
                                problem = "missing";
                                return std::string();
                            }
                            return it->second;
                        });
    return check;
}

} // namespace

std::string packagePathProblem(const std::string& path)
{
    if (path.empty()) return "an empty path";
    if (path.front() == '/' || path.find('\\') != std::string::npos ||
        path.find('\0') != std::string::npos)
        return "not a relative path inside the package";
    for (const std::string& part : pathParts(path))
        if (part.empty() || part == "." || part == "..")
            return "leaves the package or is not a plain path";
    return {};
}

PackageCheck checkPackage(const std::string& packageFolderOrArchive)
{
    PackageCheck check;
    std::error_code ec;
    if (fs::is_symlink(packageFolderOrArchive, ec))
        check.error = packageFolderOrArchive + " is a symbolic link; name the package itself";
    else if (fs::is_directory(packageFolderOrArchive, ec))
        check = checkFolder(packageFolderOrArchive);
    else if (fs::exists(packageFolderOrArchive, ec))
        check = checkArchive(packageFolderOrArchive);
    else
        check.error = packageFolderOrArchive + " does not exist";
    for (std::vector<std::string>* list :
         {&check.missing, &check.changed, &check.extra, &check.unsafe}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    return check;
}

std::string checkDeployable(const std::string& folder, const std::string& archive)
{
    auto summary = [](const std::string& what, const PackageCheck& check) {
        if (!check.error.empty()) return check.error;
        std::string problems;
        for (const auto& [label, list] : {std::pair{"missing", &check.missing},
                                          {"changed", &check.changed},
                                          {"extra", &check.extra},
                                          {"unsafe", &check.unsafe}})
            for (const std::string& entry : *list)
                problems += (problems.empty() ? "" : "; ") + std::string(label) + ": " + entry;
        return what + " does not match its manifest (" + problems + ")";
    };
    const PackageCheck onDisk = checkPackage(folder);
    if (!onDisk.ok()) return summary(folder, onDisk);
    if (archive.empty()) return {};
    const PackageCheck packed = checkPackage(archive);
    if (!packed.ok()) return summary(archive, packed);
    if (packed.manifestSha256 != onDisk.manifestSha256)
        return archive + " holds another package than " + folder;
    return {};
}

} // namespace ptowb
