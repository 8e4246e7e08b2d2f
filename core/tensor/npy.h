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
// A .npy file read a block at a time, for a pass over data that need not be held at once
// (compare_files.h). Read like readNpy, never mapped: the header is checked against the file's
// size when it opens, and a file that shrinks later is an error from read(), never a SIGBUS.
class NpyBlockReader
{
public:
    static std::variant<NpyBlockReader, std::string> open(const std::string& path);
    NpyBlockReader(NpyBlockReader&& other) noexcept;
    NpyBlockReader& operator=(NpyBlockReader&&) = delete;
    ~NpyBlockReader();

    DType dtype() const { return m_dtype; }
    const std::vector<std::int64_t>& shape() const { return m_shape; }
    std::int64_t numel() const;
    // Reads elements [first, first + count) into `out`, room for `count` elements: "" or why not.
    std::string read(std::int64_t first, std::int64_t count, std::byte* out) const;

private:
    NpyBlockReader() = default;
    int m_fd = -1;
    std::string m_path;
    DType m_dtype = DType::Float32;
    std::vector<std::int64_t> m_shape;
    std::size_t m_dataOffset = 0;
};

// Parses an in-memory file (the bytes must outlive the returned tensor's use, so they are copied).
std::variant<Tensor, std::string> parseNpy(std::span<const std::byte> file);

// Writes version 1.0 (2.0 when the header needs it) to a temporary file renamed into place.
// Returns "" on success, otherwise the reason.
std::string writeNpy(const std::string& path, const Tensor& tensor);

} // namespace ptowb
