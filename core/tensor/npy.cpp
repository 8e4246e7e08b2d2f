#include "tensor/npy.h"

#include "io/atomic_write.h"
#include "rules/shape_functions.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptowb {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct Mapping
{
    void* address = MAP_FAILED;
    std::size_t length = 0;
    ~Mapping()
    {
        if (address != MAP_FAILED) munmap(address, length);
    }
};

// Reads the header's Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (4, 64), }
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
                if (!quoted(descr)) return "'descr' must be a string; structured dtypes are not supported";
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (word("True")) fortran = true;
                else if (word("False")) fortran = false;
                else return "'fortran_order' must be True or False";
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
        if (!haveDescr || !haveFortran || !haveShape) return "header lacks 'descr', 'fortran_order' or 'shape'";
        return {};
    }

private:
    void skip()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t')) ++m_pos;
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
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
            if (m_pos < m_text.size() && m_text[m_pos] == 'L') ++m_pos; // Python 2 longs
            if (start == m_pos) return "'shape' must hold non-negative integers";
            errno = 0;
            const long long v = std::strtoll(std::string(m_text.substr(start, m_pos - start)).c_str(), nullptr, 10);
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
    if (order == '>') return "big-endian data ('" + descr + "') is not supported; save it little-endian ('<')";
    if (order != '<' && order != '|' && order != '=') return "unsupported dtype '" + descr + "'";
    if (code == "u2") return DType::BFloat16;
    for (const auto& info : allDTypes())
        if (info.npyDescr.substr(1) == code && info.dtype != DType::BFloat16) return info.dtype;
    if (code == "O") return std::string("object arrays cannot be read; save numeric data");
    return "unsupported dtype '" + descr + "' (supported: bool, uint8, int8, int16, int32, int64, float16, float32, float64, and bfloat16 as <u2)";
}

} // namespace

static std::variant<Tensor, std::string> parseMapped(const std::byte* data, std::size_t size, std::shared_ptr<const void> owner)
{
    if (size < 10 || std::memcmp(data, kMagic, 6) != 0) return std::string("not a .npy file (bad magic)");
    const int major = int(data[6]);
    const int minor = int(data[7]);
    if (minor != 0 || major < 1 || major > 3)
        return "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor);
    std::size_t headerLength = 0, prefix = 0;
    if (major == 1) {
        headerLength = std::size_t(data[8]) | (std::size_t(data[9]) << 8);
        prefix = 10;
    } else {
        if (size < 12) return std::string("truncated .npy header");
        headerLength = std::size_t(data[8]) | (std::size_t(data[9]) << 8) | (std::size_t(data[10]) << 16) | (std::size_t(data[11]) << 24);
        prefix = 12;
    }
    if (headerLength > kMaxNpyHeaderBytes)
        return "header claims " + std::to_string(headerLength) + " bytes; at most " + std::to_string(kMaxNpyHeaderBytes) + " are accepted";
    if (prefix + headerLength > size) return "header claims " + std::to_string(headerLength) + " bytes but the file ends before that";
    const std::string_view header(reinterpret_cast<const char*>(data + prefix), headerLength);
    std::string descr;
    bool fortran = false;
    std::vector<std::int64_t> shape;
    if (std::string error = HeaderParser(header).parse(descr, fortran, shape); !error.empty()) return "bad .npy header: " + error;
    if (fortran) return std::string("Fortran-ordered arrays are not supported; save it in C order (np.ascontiguousarray)");
    auto dtype = dtypeFromDescr(descr);
    if (auto* e = std::get_if<std::string>(&dtype)) return *e;
    const std::int64_t count = Tensor::elementCount(shape);
    const std::size_t item = std::size_t(dtypeInfo(std::get<DType>(dtype)).itemSize);
    std::int64_t bytes = 0;
    if (count < 0 || __builtin_mul_overflow(count, std::int64_t(item), &bytes)) return "shape " + shapefn::toString(shape) + " is too large";
    const std::size_t available = size - prefix - headerLength;
    if (std::uint64_t(bytes) > available)
        return "truncated data: shape " + shapefn::toString(shape) + " needs " + std::to_string(bytes) + " bytes, the file has " + std::to_string(available);
    if (std::uint64_t(bytes) < available)
        return "the file has " + std::to_string(available - std::size_t(bytes)) + " bytes more than shape " + shapefn::toString(shape) + " needs";
    return Tensor::view(std::get<DType>(dtype), std::move(shape), std::move(owner), data + prefix + headerLength);
}

std::variant<Tensor, std::string> readNpy(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot open " + path + ": " + std::strerror(errno);
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return path + " is not a regular file";
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->length = std::size_t(st.st_size);
    if (mapping->length > 0) mapping->address = ::mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapError = errno;
    ::close(fd);
    if (mapping->length == 0) return path + ": empty file";
    if (mapping->address == MAP_FAILED) return "cannot map " + path + ": " + std::strerror(mapError);
    ::madvise(mapping->address, mapping->length, MADV_SEQUENTIAL);
    auto result = parseMapped(static_cast<const std::byte*>(mapping->address), mapping->length, mapping);
    if (auto* e = std::get_if<std::string>(&result)) *e = path + ": " + *e;
    return result;
}

std::variant<Tensor, std::string> parseNpy(std::span<const std::byte> file)
{
    auto copy = std::make_shared<std::vector<std::byte>>(file.begin(), file.end());
    return parseMapped(copy->data(), copy->size(), copy);
}

std::string writeNpy(const std::string& path, const Tensor& tensor)
{
    std::string dims;
    for (std::int64_t d : tensor.shape()) dims += std::to_string(d) + ", ";
    if (tensor.shape().size() > 1) dims.erase(dims.size() - 2);
    else if (tensor.shape().size() == 1) dims.erase(dims.size() - 1);
    std::string header = "{'descr': '" + std::string(dtypeInfo(tensor.dtype()).npyDescr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
    const bool v2 = header.size() + 11 > 65535;
    const std::size_t prefix = v2 ? 12 : 10;
    const std::size_t total = prefix + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';

    char prefixBytes[12] = {'\x93', 'N', 'U', 'M', 'P', 'Y', char(v2 ? 2 : 1), 0};
    const std::size_t n = header.size();
    for (int k = 0; k < 4; ++k) prefixBytes[8 + k] = char((n >> (8 * k)) & 0xff);
    return writeAtomically(path, {std::string_view(prefixBytes, prefix), header,
                                  std::string_view(reinterpret_cast<const char*>(tensor.bytes()), tensor.byteSize())});
}

} // namespace ptowb
