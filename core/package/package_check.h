#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptowb {

struct PackageCheck
{
    std::string error; // the manifest is missing or unreadable, or the archive is not one
    std::vector<std::string> missing; // listed in the manifest, not in the package
    std::vector<std::string> extra;   // in the package, not in the manifest
    std::vector<std::string> changed; // in the package with another sha256
    std::vector<std::string> unsafe;  // "path: why" — a manifest path or an entry that leaves the
                                      // package, a symbolic link, or something that is not a
                                      // regular file
    std::string manifestSha256; // of manifest.json, to tell whether a folder and an archive agree

    bool ok() const
    {
        return error.empty() && missing.empty() && extra.empty() && changed.empty() &&
               unsafe.empty();
    }
};

// Verifies an exported package — a folder, or a .tar.gz written by export — against its
// manifest: the sha256 of every file, nothing missing, nothing extra. Every path stays inside
// the package: a manifest path with "..", an absolute one, a symbolic link anywhere, a device,
// FIFO or socket, or an archive entry outside its one top folder is unsafe and never opened.
// Reads are bounded: by each regular file's own size, and by kMaxArchiveBytes for an archive.
PackageCheck checkPackage(const std::string& packageFolderOrArchive);

// "" when the folder — and the archive, unless `archive` is empty — pass checkPackage and hold
// the same package (the same manifest); otherwise what is wrong, in one line.
std::string checkDeployable(const std::string& folder, const std::string& archive);

// The most an archive may expand to while it is checked (a gzip bomb stops here).
inline constexpr std::int64_t kMaxArchiveBytes = std::int64_t(16) << 30;

// "" when `path` is a relative path of plain components inside a package; otherwise why not.
std::string packagePathProblem(const std::string& path);

} // namespace ptowb
