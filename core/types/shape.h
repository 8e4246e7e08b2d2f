#pragma once

#include <cstdint>
#include <span>

namespace ptowb {

// The number of elements of a tensor of `shape`; -1 when a dim is negative or the count overflows.
std::int64_t elementCount(std::span<const std::int64_t> shape);

} // namespace ptowb
