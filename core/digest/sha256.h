#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptowb {

// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(std::string_view bytes);

// The same over bytes that arrive in pieces (a file read in blocks, an archive entry).
class Sha256
{
public:
    void add(std::string_view bytes);
    std::string hex(); // ends the hash: add nothing after it

private:
    std::array<std::uint32_t, 8> m_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<unsigned char, 64> m_block{};
    std::size_t m_blockSize = 0; // bytes waiting in m_block
    std::uint64_t m_total = 0;
};

} // namespace ptowb
