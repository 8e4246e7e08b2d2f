#pragma once

#include <cstdint>
#include <string>

namespace ptowb {

// Writes the whole file or nothing: the data goes to a temporary file that replaces the
// target only once it is complete, so a full disk or a crash never leaves half a file. Unlike
// io/atomic_write.h, the file keeps the permissions of the one it replaces: these are the
// user's files. Returns an empty string on success, otherwise what went wrong.
std::string writeFileAtomically(const std::string& path, const std::string& data);

// Reads a text file of at most maxBytes; returns false and sets error otherwise.
bool readTextFile(const std::string& path, std::string& data, std::string& error,
                  std::int64_t maxBytes = 16 << 20);

} // namespace ptowb
