#include "tensor/npy.h"

#include "io/atomic_write.h"
#include "rules/shape_functions.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ptowb {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

// Reads the header's Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (4,
// 64), }
class HeaderParser
{
public:
    explicit HeaderParser(std::string_view text) : m_text(text) {}

    std::string parse(std::string& descr, bool& fortran, std::vector<std::int64_t>& shape)
    {
        bool haveDescr = false, haveFortran = false, haveShape = false;
        skip();
        if (!eat('{')) return "header is not a dict";
        while (true) {
            skip();
            if (eat('}')) break;
            std::string key;
            if (!quoted(key)) return "header keys must be quoted strings";
            skip();
            if (!eat(':')) return "expected ':' after '" + key + "' in the header";
            skip();
            if (key == "descr") {
                if (!quoted(descr))
                    return "'descr' must be a string; structured dtypes are not supported";
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (word("True"))
                    fortran = true;
                else if (word("False"))
                    fortran = false;
                else
                    return "'fortran_order' must be True or False";
                haveFortran = true;
            } else if (key == "shape") {
                std::string error = tuple(shape);
                if (!error.empty()) return error;
                haveShape = true;
            } else {
                return "unexpected header key '" + key + "'";
            }
            skip();
            if (eat(',')) continue;
            skip();
            if (eat('}')) break;
            return "expected ',' or '}' in the header";
        }
        if (!haveDescr || !haveFortran || !haveShape)
            return "header lacks 'descr', 'fortran_order' or 'shape'";
        return {};
    }

private:
    void skip()
    {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool eat(char c)
    {
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    bool word(std::string_view w)
    {
        if (m_text.substr(m_pos, w.size()) != w) return false;
        m_pos += w.size();
        return true;
    }
    bool quoted(std::string& out)
    {
        if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"')) return false;
        const char q = m_text[m_pos++];
        const std::size_t end = m_text.find(q, m_pos);
        if (end == std::string_view::npos) return false;
        out = std::string(m_text.substr(m_pos, end - m_pos));
        m_pos = end + 1;
        return true;
    }
    std::string tuple(std::vector<std::int64_t>& shape)
    {
        if (!eat('(')) return "'shape' must be a tuple";
        while (true) {
            skip();
            if (eat(')')) return {};
            std::size_t start = m_pos;
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])))
                ++m_pos;
            if (m_pos < m_text.size() && m_text[m_pos] == 'L') ++m_pos; // Python 2 longs
            if (start == m_pos) return "'shape' must hold non-negative integers";
            errno = 0;
            const long long v =
                std::strtoll(std::string(m_text.substr(start, m_pos - start)).c_str(), nullptr, 10);
            if (errno == ERANGE) return "a dim of 'shape' does not fit in 64 bits";
            shape.push_back(v);
            if (shape.size() > 64) return "'shape' has more than 64 dims";
            skip();
            if (eat(',')) continue;
            skip();
            if (eat(')')) return {};
            return "malformed 'shape' tuple";
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

std::variant<DType, std::string> dtypeFromDescr(const std::string& descr)
{
    if (descr.size() < 2) return "unsupported dtype '" + descr + "'";
    const char order = descr[0];
    const std::string code = descr.substr(1);
    if (order == '>')
        return "big-endian data ('" + descr + "') is not supported; save it little-endian ('<')";
    if (order != '<' && order != '|' && order != '=') return "unsupported dtype '" + descr + "'";
    if (code == "u2") return DType::BFloat16;
    for (const auto& info : allDTypes())
        if (info.npyDescr.substr(1) == code && info.dtype != DType::BFloat16) return info.dtype;
    if (code == "O") return std::string("object arrays cannot be read; save numeric data");
    return "unsupported dtype '" + descr +
           "' (supported: bool, uint8, int8, int16, int32, int64, float16, float32, float64, and "
           "bfloat16 as <u2)";
}

} // namespace

namespace {

struct Layout
{
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape;
    std::size_t dataOffset = 0;
    std::uint64_t dataBytes = 0;
};

// Reads the header from `head` (the file's first bytes: all of it, or at least the whole
// header) and checks that a file of `fileSize` bytes holds exactly the data it announces.
std::variant<Layout, std::string> parseLayout(const std::byte* head, std::size_t headSize,
                                              std::uint64_t fileSize)
{
    if (headSize < 10 || std::memcmp(head, kMagic, 6) != 0)
        return std::string("not a .npy file (bad magic)");
    const int major = int(head[6]);
    const int minor = int(head[7]);
    if (minor != 0 || major < 1 || major > 3)
        return "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor);
    std::size_t headerLength = 0, prefix = 0;
    if (major == 1) {
        headerLength = std::size_t(head[8]) | (std::size_t(head[9]) << 8);
        prefix = 10;
    } else {
        if (headSize < 12) return std::string("truncated .npy header");
        headerLength = std::size_t(head[8]) | (std::size_t(head[9]) << 8) |
                       (std::size_t(head[10]) << 16) | (std::size_t(head[11]) << 24);
        prefix = 12;
    }
    if (headerLength > kMaxNpyHeaderBytes)
        return "header claims " + std::to_string(headerLength) + " bytes; at most " +
               std::to_string(kMaxNpyHeaderBytes) + " are accepted";
    if (prefix + headerLength > fileSize || prefix + headerLength > headSize)
        return "header claims " + std::to_string(headerLength) +
               " bytes but the file ends before that";
    const std::string_view header(reinterpret_cast<const char*>(head + prefix), headerLength);
    std::string descr;
    bool fortran = false;
    Layout layout;
    if (std::string error = HeaderParser(header).parse(descr, fortran, layout.shape);
        !error.empty())
        return "bad .npy header: " + error;
    if (fortran)
        return std::string(
            "Fortran-ordered arrays are not supported; save it in C order (np.ascontiguousarray)");
    auto dtype = dtypeFromDescr(descr);
    if (auto* e = std::get_if<std::string>(&dtype)) return *e;
    layout.dtype = std::get<DType>(dtype);
    const std::int64_t count = elementCount(layout.shape);
    const std::size_t item = std::size_t(dtypeInfo(layout.dtype).itemSize);
    std::int64_t bytes = 0;
    if (count < 0 || __builtin_mul_overflow(count, std::int64_t(item), &bytes))
        return "shape " + shapefn::toString(layout.shape) + " is too large";
    layout.dataOffset = prefix + headerLength;
    layout.dataBytes = std::uint64_t(bytes);
    const std::uint64_t available = fileSize - layout.dataOffset;
    if (layout.dataBytes > available)
        return "truncated data: shape " + shapefn::toString(layout.shape) + " needs " +
               std::to_string(bytes) + " bytes, the file has " + std::to_string(available);
    if (layout.dataBytes < available)
        return "the file has " + std::to_string(available - layout.dataBytes) +
               " bytes more than shape " + shapefn::toString(layout.shape) + " needs";
    return layout;
}

// pread until `length` bytes are in or the file ends; false when it ended early.
bool readFully(int fd, std::byte* out, std::size_t length, off_t offset)
{
    while (length > 0) {
        const ssize_t n = ::pread(fd, out, length, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        out += n;
        length -= std::size_t(n);
        offset += n;
    }
    return true;
}

// The header of an open file, checked against the file's size.
std::variant<Layout, std::string> readLayout(int fd, std::uint64_t fileSize)
{
    std::vector<std::byte> head(std::size_t(std::min<std::uint64_t>(fileSize, 12)));
    if (!readFully(fd, head.data(), head.size(), 0)) return std::string("cannot read the header");
    if (head.size() >= 10 && std::memcmp(head.data(), kMagic, 6) == 0) {
        const bool v1 = int(head[6]) == 1;
        std::size_t headerLength = std::size_t(head[8]) | (std::size_t(head[9]) << 8);
        if (!v1 && head.size() >= 12)
            headerLength |= (std::size_t(head[10]) << 16) | (std::size_t(head[11]) << 24);
        const std::size_t want = std::size_t(std::min<std::uint64_t>(
            fileSize, (v1 ? 10 : 12) + std::min(headerLength, kMaxNpyHeaderBytes)));
        head.resize(want);
        if (!readFully(fd, head.data(), head.size(), 0))
            return std::string("the file shrank while it was read");
    }
    return parseLayout(head.data(), head.size(), fileSize);
}

std::variant<Tensor, std::string> readOpenFile(int fd, std::uint64_t fileSize,
                                               const NpyExpectation* expected, bool& mismatch)
{
    // The header first, then exactly the data it announces: nothing is allocated for a file
    // whose size does not match, and nothing is mapped, so another process truncating the file
    // meanwhile gives an error here, never a SIGBUS later.
    auto layout = readLayout(fd, fileSize);
    if (auto* e = std::get_if<std::string>(&layout)) return *e;
    Layout& l = std::get<Layout>(layout);
    if (expected && (l.dtype != expected->dtype || l.shape != expected->shape)) {
        mismatch = true;
        return "holds " + std::string(dtypeName(l.dtype)) + shapefn::toString(l.shape) + ", " +
               expected->who + " " + std::string(dtypeName(expected->dtype)) +
               shapefn::toString(expected->shape);
    }
    std::shared_ptr<std::byte[]> data;
    try {
        data.reset(new std::byte[std::max<std::uint64_t>(l.dataBytes, 1)]);
    } catch (const std::bad_alloc&) {
        return "cannot allocate " + std::to_string(l.dataBytes) + " bytes for shape " +
               shapefn::toString(l.shape);
    }
    if (!readFully(fd, data.get(), std::size_t(l.dataBytes), off_t(l.dataOffset)))
        return std::string("the file shrank while it was read");
    const std::byte* bytes = data.get();
    return Tensor::view(l.dtype, std::move(l.shape), std::shared_ptr<const void>(std::move(data)),
                        bytes);
}

// Opens `path` for reading when it is a non-empty regular file: the descriptor, or why not.
std::variant<int, std::string> openRegular(const std::string& path, std::uint64_t& size)
{
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return path + " is not a regular file";
    }
    if (st.st_size == 0) {
        ::close(fd);
        return path + ": empty file";
    }
    size = std::uint64_t(st.st_size);
    return fd;
}

} // namespace

static std::variant<Tensor, std::string> parseMapped(const std::byte* data, std::size_t size,
                                                     std::shared_ptr<const void> owner)
{
    auto layout = parseLayout(data, size, size);
    if (auto* e = std::get_if<std::string>(&layout)) return *e;
    Layout& l = std::get<Layout>(layout);
    return Tensor::view(l.dtype, std::move(l.shape), std::move(owner), data + l.dataOffset);
}

static std::variant<Tensor, std::string> readNpyFile(const std::string& path,
                                                     const NpyExpectation* expected)
{
    std::uint64_t size = 0;
    auto opened = openRegular(path, size);
    if (auto* e = std::get_if<std::string>(&opened)) return *e;
    const int fd = std::get<int>(opened);
    bool mismatch = false;
    auto result = readOpenFile(fd, size, expected, mismatch);
    ::close(fd);
    if (auto* e = std::get_if<std::string>(&result)) *e = path + (mismatch ? " " : ": ") + *e;
    return result;
}

std::variant<NpyBlockReader, std::string> NpyBlockReader::open(const std::string& path)
{
    std::uint64_t size = 0;
    auto opened = openRegular(path, size);
    if (auto* e = std::get_if<std::string>(&opened)) return *e;
    NpyBlockReader reader;
    reader.m_fd = std::get<int>(opened);
    reader.m_path = path;
    auto layout = readLayout(reader.m_fd, size);
    if (auto* e = std::get_if<std::string>(&layout)) return path + ": " + *e;
    Layout& l = std::get<Layout>(layout);
    reader.m_dtype = l.dtype;
    reader.m_shape = std::move(l.shape);
    reader.m_dataOffset = l.dataOffset;
    return reader;
}

NpyBlockReader::NpyBlockReader(NpyBlockReader&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path)), m_dtype(other.m_dtype),
      m_shape(std::move(other.m_shape)), m_dataOffset(other.m_dataOffset)
{
}

NpyBlockReader::~NpyBlockReader()
{
    if (m_fd >= 0) ::close(m_fd);
}

std::int64_t NpyBlockReader::numel() const
{
    return elementCount(m_shape);
}

std::string NpyBlockReader::read(std::int64_t first, std::int64_t count, std::byte* out) const
{
    const auto item = std::int64_t(dtypeInfo(m_dtype).itemSize);
    if (first < 0 || count < 0 || first + count > numel())
        return m_path + ": elements " + std::to_string(first) + ".." +
               std::to_string(first + count) + " are outside the file";
    if (!readFully(m_fd, out, std::size_t(count * item), off_t(m_dataOffset) + off_t(first * item)))
        return m_path + ": the file shrank while it was read";
    return {};
}

std::variant<Tensor, std::string> readNpy(const std::string& path)
{
    return readNpyFile(path, nullptr);
}

std::variant<Tensor, std::string> readNpy(const std::string& path, const NpyExpectation& expected)
{
    return readNpyFile(path, &expected);
}

std::variant<Tensor, std::string> parseNpy(std::span<const std::byte> file)
{
    auto copy = std::make_shared<std::vector<std::byte>>(file.begin(), file.end());
    return parseMapped(copy->data(), copy->size(), copy);
}

std::string writeNpy(const std::string& path, const Tensor& tensor)
{
    std::string dims;
    for (std::int64_t d : tensor.shape())
        dims += std::to_string(d) + ", ";
    if (tensor.shape().size() > 1)
        dims.erase(dims.size() - 2);
    else if (tensor.shape().size() == 1)
        dims.erase(dims.size() - 1);
    std::string header = "{'descr': '" + std::string(dtypeInfo(tensor.dtype()).npyDescr) +
                         "', 'fortran_order': False, 'shape': (" + dims + "), }";
    const bool v2 = header.size() + 11 > 65535;
    const std::size_t prefix = v2 ? 12 : 10;
    const std::size_t total = prefix + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';

    char prefixBytes[12] = {'\x93', 'N', 'U', 'M', 'P', 'Y', char(v2 ? 2 : 1), 0};
    const std::size_t n = header.size();
    for (int k = 0; k < 4; ++k)
        prefixBytes[8 + k] = char((n >> (8 * k)) & 0xff);
    return writeAtomically(
        path, {std::string_view(prefixBytes, prefix), header,
               std::string_view(reinterpret_cast<const char*>(tensor.bytes()), tensor.byteSize())});
}

} // namespace ptowb
