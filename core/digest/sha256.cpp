#include "digest/sha256.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace ptowb {

namespace {

// FIPS 180-4 SHA-256, written out so that the Qt-free runtime (the reference verdict cache)
// and the workbench hash with one implementation.
constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

void compress(std::array<std::uint32_t, 8>& state, const unsigned char* block)
{
    std::uint32_t w[64];
    for (int k = 0; k < 16; ++k)
        w[k] = std::uint32_t(block[4 * k]) << 24 | std::uint32_t(block[4 * k + 1]) << 16 |
               std::uint32_t(block[4 * k + 2]) << 8 | std::uint32_t(block[4 * k + 3]);
    for (int k = 16; k < 64; ++k) {
        const std::uint32_t s0 = rotr(w[k - 15], 7) ^ rotr(w[k - 15], 18) ^ (w[k - 15] >> 3);
        const std::uint32_t s1 = rotr(w[k - 2], 17) ^ rotr(w[k - 2], 19) ^ (w[k - 2] >> 10);
        w[k] = w[k - 16] + s0 + w[k - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, h] = state;
    for (int k = 0; k < 64; ++k) {
        const std::uint32_t t1 =
            h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[k] + w[k];
        const std::uint32_t t2 =
            (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    const std::uint32_t next[8] = {a, b, c, d, e, f, g, h};
    for (int k = 0; k < 8; ++k)
        state[std::size_t(k)] += next[k];
}

} // namespace

std::string sha256Hex(std::string_view bytes)
{
    Sha256 hash;
    hash.add(bytes);
    return hash.hex();
}

void Sha256::add(std::string_view bytes)
{
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t size = bytes.size();
    m_total += size;
    if (m_blockSize) { // fill the waiting block first
        const std::size_t take = std::min(size, 64 - m_blockSize);
        std::memcpy(m_block.data() + m_blockSize, data, take);
        m_blockSize += take;
        data += take;
        size -= take;
        if (m_blockSize < 64) return;
        compress(m_state, m_block.data());
        m_blockSize = 0;
    }
    for (; size >= 64; data += 64, size -= 64)
        compress(m_state, data);
    if (size) std::memcpy(m_block.data(), data, size);
    m_blockSize = size;
}

std::string Sha256::hex()
{
    // The tail, the 0x80 marker and the length in bits fill one or two last blocks.
    unsigned char last[128] = {};
    const std::size_t tail = m_blockSize;
    if (tail) std::memcpy(last, m_block.data(), tail);
    last[tail] = 0x80;
    const std::size_t lastSize = tail < 56 ? 64 : 128;
    const std::uint64_t bits = m_total * 8;
    for (int k = 0; k < 8; ++k)
        last[lastSize - 1 - std::size_t(k)] = static_cast<unsigned char>(bits >> (8 * k));
    for (std::size_t k = 0; k < lastSize; k += 64)
        compress(m_state, last + k);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(64, '0');
    for (std::size_t k = 0; k < 32; ++k) {
        const auto byte = static_cast<unsigned char>(m_state[k / 4] >> (24 - 8 * (k % 4)));
        out[2 * k] = kHex[byte >> 4];
        out[2 * k + 1] = kHex[byte & 15];
    }
    return out;
}

} // namespace ptowb
