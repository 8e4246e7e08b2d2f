#pragma once

#include <cstdint>
#include <cstring>

// IEEE binary16 and bfloat16 conversions, round-to-nearest-even, NaN preserved. Kept free of
// any tensor library so that tensor files and comparisons need nothing but the standard.
namespace ptowb::half {

inline float bitsToFloat(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline std::uint32_t floatToBits(float f)
{
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
}

inline float bf16ToFloat(std::uint16_t h)
{
    return bitsToFloat(std::uint32_t(h) << 16);
}

inline std::uint16_t floatToBf16(float f)
{
    const std::uint32_t bits = floatToBits(f);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((bits >> 16) | 0x40); // quiet NaN
    const std::uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
    return std::uint16_t((bits + rounding) >> 16);
}

inline float fp16ToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return bitsToFloat(sign | 0x7f800000u | (mantissa << 13));
    if (exponent == 0) {
        if (mantissa == 0) return bitsToFloat(sign);
        // Subnormal: value = mantissa * 2^-24.
        const float magnitude = float(mantissa) * (1.0f / 16777216.0f);
        return sign ? -magnitude : magnitude;
    }
    return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

inline std::uint16_t floatToFp16(float f)
{
    const std::uint32_t bits = floatToBits(f);
    const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000u);
    const std::uint32_t abs = bits & 0x7fffffffu;
    if (abs > 0x7f800000u) return std::uint16_t(sign | 0x7e00u);  // NaN
    if (abs >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u); // rounds to infinity
    if (abs < 0x38800000u) {
        // Subnormal or zero in half precision: scale to an integer count of 2^-24 and round.
        const float magnitude = bitsToFloat(abs) * 16777216.0f;
        const float rounded = __builtin_nearbyintf(magnitude);
        return std::uint16_t(sign | std::uint16_t(rounded));
    }
    const std::uint32_t rounding = 0xfffu + ((abs >> 13) & 1u);
    return std::uint16_t(sign | ((abs - 0x38000000u + rounding) >> 13));
}

} // namespace ptowb::half
