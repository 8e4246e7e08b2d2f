#pragma once

#include <string>
#include <vector>

namespace ptowb {

// Platform configs (resources/platforms/*.json): $PTOWB_PLATFORMS_DIR, an installed ptowb's
// share/ptowb/platforms, or the source tree. `nameOrPath` is a platform name ("KirinX90") or a
// .json path. Returns the file, or "" with `error` set (listing the known names).
std::string findPlatformFile(const std::string& nameOrPath, std::string& error);
std::vector<std::string> platformNames();

} // namespace ptowb
