#pragma once

#include "tensor/tensor.h"

#include <string>
#include <variant>
#include <vector>

namespace ptowb {

// NumPy .npy files, format versions 1.0, 2.0 and 3.0, C order, little-endian. bfloat16 has
// no NumPy dtype: it is stored as '<u2' raw bits, and a '<u2' file reads as bfloat16.
// Files are read, never memory-mapped: a file truncated by another process while it is in use
// cannot crash the reader (SIGBUS). Every malformed file is an error value.
inline constexpr std::size_t kMaxNpyHeaderBytes = 1u << 20;

std::variant<Tensor, std::string> readNpy(const std::string& path);

// What a file must hold. Read this way, a file is compared with it by its header, before any of
// its data is read or allocated: a 2 GiB file where a few KiB are expected costs nothing. The
// error then reads "PATH holds float32[16384, 32768], WHO float16[4, 64]".
struct NpyExpectation
{
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape;
    std::string who = "expected"; // who expects it: "the case says"
};
std::variant<Tensor, std::string> readNpy(const std::string& path, const NpyExpectation& expected);
// Parses an in-memory file (the bytes must outlive the returned tensor's use, so they are copied).
std::variant<Tensor, std::string> parseNpy(std::span<const std::byte> file);

// Writes version 1.0 (2.0 when the header needs it) to a temporary file renamed into place.
// Returns "" on success, otherwise the reason.
std::string writeNpy(const std::string& path, const Tensor& tensor);

} // namespace ptowb
