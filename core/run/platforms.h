#pragma once

#include <string>
#include <vector>

namespace ptowb {

// Platform configs (resources/platforms/*.json): $PTOWB_RESOURCES_DIR/platforms, an installed
// ptowb's share/ptowb/platforms, or the source tree. `nameOrPath` is a platform name ("KirinX90")
// or a .json path. Returns the file, or "" with `error` set (listing the known names).
std::string findPlatformFile(const std::string& nameOrPath, std::string& error);
std::vector<std::string> platformNames();

// Folders that may hold resources/<sub> (platforms, templates): $PTOWB_RESOURCES_DIR/<sub>, an
// installed ptowb's share/ptowb/<sub>, the source tree.
std::vector<std::string> resourceFolders(const std::string& sub);

} // namespace ptowb
