#pragma once

#include <string>

namespace ptowb {

// `path` made absolute (against the current folder) without "." or ".." components, repeated
// separators or a trailing separator; symbolic links are kept, not resolved. "" stays "".
std::string cleanAbsolutePath(const std::string& path);

} // namespace ptowb
