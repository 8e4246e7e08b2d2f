// .npy bytes -> the reader of case inputs and runner outputs.
#include "tensor/npy.h"

#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    (void)ptowb::parseNpy(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size));
    return 0;
}
