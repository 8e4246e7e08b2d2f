#include "io/clean_path.h"

#include <filesystem>

namespace ptowb {

std::string cleanAbsolutePath(const std::string& path)
{
    namespace fs = std::filesystem;
    if (path.empty()) return {};
    std::error_code ec;
    fs::path clean = fs::absolute(path, ec).lexically_normal();
    if (ec) clean = fs::path(path).lexically_normal();
    // "/a/b/" normalises to "/a/b/" (an empty last component): drop it, but keep "/" itself.
    if (!clean.has_filename() && clean != clean.root_path()) clean = clean.parent_path();
    return clean.string();
}

} // namespace ptowb
