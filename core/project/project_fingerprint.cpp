#include "project/project_fingerprint.h"

#include "diag/suggest.h"
#include "digest/sha256.h"
#include "io/clean_path.h"
#include "project/project.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

// A project holds a handful of Python files; a folder with more is fingerprinted by its first
// ones in path order and a marker, so a huge tree cannot make opening it slow.
constexpr std::size_t kMaxFiles = 2000;
constexpr std::uintmax_t kMaxFileBytes = 64 << 20;

std::string fileDigest(const fs::path& path)
{
    std::error_code ec;
    if (fs::is_symlink(path,
                       ec)) { // a link is trusted as where it points, not as what is there now
        const fs::path target = fs::read_symlink(path, ec);
        return "link:" + cleanAbsolutePath((path.parent_path() / target).string());
    }
    std::uintmax_t size = fs::file_size(path, ec);
    if (ec) size = 0;
    std::ifstream in(path, std::ios::binary);
    if (size > kMaxFileBytes || !in) return "unreadable:" + std::to_string(size);
    return sha256Hex(std::string(std::istreambuf_iterator<char>(in), {}));
}

// Not part of it: the workbench's own output (packages, .ptowb), hidden folders, caches.
bool outsideFingerprint(const fs::path& relativeFolder)
{
    if (*relativeFolder.begin() == "packages") return true;
    return std::any_of(relativeFolder.begin(), relativeFolder.end(), [](const fs::path& part) {
        return part.string().front() == '.' || part == "__pycache__";
    });
}

bool isPythonFile(const fs::path& path)
{
    std::string extension = path.extension().string();
    for (char& c : extension)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension == ".py";
}

} // namespace

ProjectFingerprint projectFingerprint(const Project& project)
{
    const fs::path root = project.folder();
    ProjectFingerprint out;
    std::error_code ec;
    for (const fs::path path :
         {fs::path(project.descriptionPath()), fs::path(project.kernelPath()),
          fs::path(project.referencePath()), root / "runners.json", root / "deploy.json"})
        if (fs::exists(path, ec) || fs::is_symlink(path, ec))
            out[path.lexically_relative(root).string()] = fileDigest(path);
    std::vector<std::string> python;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::path relative = it->path().lexically_relative(root);
        std::error_code entryError;
        if (it->is_directory(entryError)) {
            if (outsideFingerprint(relative)) it.disable_recursion_pending();
        } else if (isPythonFile(relative)) { // its folders are all inside the fingerprint
            python.push_back(relative.string());
        }
    }
    std::sort(python.begin(), python.end());
    for (std::size_t k = 0; k < python.size(); ++k) {
        if (k == kMaxFiles) {
            out["(" + std::to_string(python.size() - k) + " more Python files)"] = "";
            break;
        }
        out[python[k]] = fileDigest(root / python[k]);
    }
    return out;
}

std::string fingerprintChanges(const ProjectFingerprint& trusted, const ProjectFingerprint& now)
{
    std::vector<std::string> changed, added, removed;
    for (const auto& [path, digest] : now) {
        const auto it = trusted.find(path);
        if (it == trusted.end())
            added.push_back(path);
        else if (it->second != digest)
            changed.push_back(path);
    }
    for (const auto& [path, digest] : trusted)
        if (!now.count(path)) removed.push_back(path);
    std::vector<std::string> parts;
    const auto say = [&](const std::vector<std::string>& files, const char* one, const char* many) {
        if (!files.empty())
            parts.push_back(joinQuoted(files, "") + (files.size() == 1 ? one : many));
    };
    say(changed, " changed", " changed");
    say(added, " is new", " are new");
    say(removed, " is gone", " are gone");
    std::string sentence;
    for (const std::string& part : parts)
        sentence += (sentence.empty() ? "" : "; ") + part;
    return sentence;
}

} // namespace ptowb
