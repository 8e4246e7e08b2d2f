// reference.py text -> the TorchScript-subset check that runs before libtorch sees the text.
#include "reference/reference_check.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    (void)ptowb::checkReferenceSource(std::string(reinterpret_cast<const char*>(data), size),
                                      "reference.py");
    return 0;
}
