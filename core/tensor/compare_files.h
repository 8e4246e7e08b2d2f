#pragma once

#include "tensor/compare.h"
#include "tensor/npy.h"

#include <cstddef>
#include <string>
#include <variant>

namespace ptowb {

// Bytes of each file read at a time. Two blocks of each file are held (one compared while the
// next is read), so this bounds the memory a comparison of any two files takes.
inline constexpr std::size_t kCompareBlockBytes = std::size_t(8) << 20;

// compareTensors() over two .npy files, compared as they are read: reading the next block
// overlaps comparing this one, and memory stays at four blocks whatever the files' size. The
// files are read, never mapped: one truncated meanwhile is an error naming it, never a crash.
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
