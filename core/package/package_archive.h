#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptowb {

// Writes `folder` as a reproducible .tar.gz: entries sorted by path under a top folder named
// `topFolder` (default: like `folder`), mtime 0, owner 0:0 without names, modes 0644/0755, no
// gzip timestamp or name. The same files give the same bytes. Written to a temporary file,
// then renamed. Returns "" or the error.
std::string writeReproducibleArchive(const std::string& folder, const std::string& archivePath,
                                     const std::string& topFolder = {});

// What a package archive holds, read without extracting anything: the sha256 of every regular
// file under the archive's one top folder, manifest.json's bytes, and every entry that is not
// a plain file or folder inside that top folder (links, devices, "..", absolute paths).
struct ArchiveContents
{
    std::string error;
    std::map<std::string, std::string> files; // path below the top folder -> sha256 hex
    std::vector<std::string> unsafe;          // "path: why"
    std::string manifest;
};
ArchiveContents readPackageArchive(const std::string& archivePath, std::int64_t maxBytes);

} // namespace ptowb
