#pragma once

#include <string>

namespace ptowb {

// Removes `path`: a file or symbolic link itself, a real folder with everything under it. A
// symbolic link is never followed, at the top or below, so a link planted where the workbench
// keeps its own folders loses only the link. Returns "" (also when nothing was there) or why not.
std::string removeTree(const std::string& path);

// The first path from `root` (exclusive) down to `path` (inclusive) that is a symbolic link, or
// "" when there is none; components that do not exist yet end the walk. `path` must lie under
// `root`.
std::string firstLinkBelow(const std::string& root, const std::string& path);

} // namespace ptowb
