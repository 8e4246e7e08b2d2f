#include "project/glue_generation.h"

#include "io/remove_tree.h"
#include "project/project_sources.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace ptowb {

namespace fs = std::filesystem;

namespace {
// Generated files are source text; anything larger is not ours and is not shown.
constexpr std::uintmax_t kMaxGeneratedFileBytes = 8 << 20;
} // namespace

std::vector<codegen::GeneratedFile> readGeneratedFolder(const std::string& folder)
{
    std::vector<codegen::GeneratedFile> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(folder, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code fileError;
        if (!it->is_regular_file(fileError) || it->file_size(fileError) > kMaxGeneratedFileBytes)
            continue;
        std::ifstream in(it->path(), std::ios::binary);
        if (!in) continue;
        files.push_back({it->path().lexically_relative(folder).string(),
                         std::string(std::istreambuf_iterator<char>(in), {})});
    }
    std::sort(files.begin(), files.end(),
              [](const codegen::GeneratedFile& a, const codegen::GeneratedFile& b) {
                  return a.path < b.path;
              });
    return files;
}

std::vector<GlueFileChange> compareGenerations(const std::vector<codegen::GeneratedFile>& previous,
                                               const std::vector<codegen::GeneratedFile>& current)
{
    std::map<std::string, std::pair<const std::string*, const std::string*>> byPath;
    for (const codegen::GeneratedFile& f : previous)
        byPath[f.path].first = &f.content;
    for (const codegen::GeneratedFile& f : current)
        byPath[f.path].second = &f.content;
    std::vector<GlueFileChange> changes;
    for (const auto& [path, texts] : byPath) {
        GlueFileChange change;
        change.path = path;
        const auto [before, after] = texts;
        change.diff = diffLines(before ? *before : std::string(), after ? *after : std::string());
        if (!before)
            change.status = GlueFileChange::Status::Added;
        else if (!after)
            change.status = GlueFileChange::Status::Removed;
        else if (*before != *after)
            change.status = GlueFileChange::Status::Changed;
        changes.push_back(std::move(change));
    }
    return changes;
}

std::string previousGenerationFolder(const std::string& folder)
{
    return folder + ".previous";
}

std::string replaceGeneratedFolder(const std::vector<codegen::GeneratedFile>& files,
                                   const std::string& folder)
{
    // The folders beside the glue are removed as they are: a link planted there loses only
    // itself, never what it points at.
    const auto remove = [](const std::string& path) { removeTree(path); };
    const auto rename = [](const std::string& from, const std::string& to) {
        std::error_code ec;
        fs::rename(from, to, ec);
        return !ec;
    };
    std::error_code ec;
    if (fs::is_symlink(folder, ec))
        return folder + " is a symbolic link: remove it, the glue is written only into a real "
                        "folder";
    const std::string staging = folder + ".new";
    const std::string retired = folder + ".old";
    remove(staging);
    remove(retired);
    if (std::string error = writeGeneratedFiles(files, staging); !error.empty()) {
        remove(staging);
        return error;
    }
    if (fs::exists(folder, ec) && !rename(folder, retired)) {
        remove(staging);
        return "cannot replace " + folder;
    }
    if (!rename(staging, folder)) {
        rename(retired, folder);
        return "cannot move the new glue into " + folder;
    }
    // The replaced generation becomes the previous one, for the diff against it.
    const std::string previous = previousGenerationFolder(folder);
    remove(previous);
    if (fs::exists(retired, ec) && !rename(retired, previous)) remove(retired);
    return {};
}

} // namespace ptowb
