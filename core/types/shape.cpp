#include "types/shape.h"

namespace ptowb {

std::int64_t elementCount(std::span<const std::int64_t> shape)
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
    return n;
}

} // namespace ptowb
