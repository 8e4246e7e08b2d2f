#pragma once

#include "tensor/compare.h"
#include "tensor/npy.h"

#include <cstddef>
#include <string>
#include <variant>

namespace ptowb {

// Bytes of each file a thread reads at a time: small enough that a block is still in the core's
// cache when it is compared. A thread holds one block of each file, so memory is this much per
// file and core whatever the files' size.
inline constexpr std::size_t kCompareBlockBytes = std::size_t(256) << 10;

// compareTensors() over two .npy files, compared as they are read, a block at a time on every
// core. The files are read, never mapped: one truncated meanwhile is an error naming it (the
// first block that could not be read), never a crash.
// Shapes that differ are a comparison (shapesMatch false) read from the headers alone.
std::variant<Comparison, std::string> compareNpyFiles(const std::string& actualPath,
                                                      const std::string& expectedPath,
                                                      const CompareOptions& options,
                                                      std::size_t blockBytes = kCompareBlockBytes);
// The same over files already open (their headers read), as the CLI has them.
std::variant<Comparison, std::string> compareNpyFiles(const NpyBlockReader& actual,
                                                      const NpyBlockReader& expected,
                                                      const CompareOptions& options,
                                                      std::size_t blockBytes = kCompareBlockBytes);

} // namespace ptowb
