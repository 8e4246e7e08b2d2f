#include "io/remove_tree.h"

#include <filesystem>

namespace ptowb {

namespace fs = std::filesystem;

std::string removeTree(const std::string& path)
{
    // remove_all looks at the top with symlink_status and removes links as entries, never
    // descending through them.
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) return "cannot remove " + path + ": " + ec.message();
    return {};
}

std::string firstLinkBelow(const std::string& root, const std::string& path)
{
    const fs::path base = fs::path(root).lexically_normal();
    const fs::path relative = fs::path(path).lexically_normal().lexically_relative(base);
    fs::path walked = base;
    for (const fs::path& part : relative) {
        if (part.empty() || part == ".") continue;
        walked /= part;
        std::error_code ec;
        const fs::file_status status = fs::symlink_status(walked, ec);
        if (ec || !fs::exists(status)) return {};
        if (fs::is_symlink(status)) return walked.string();
    }
    return {};
}

} // namespace ptowb
