// kernel.py text -> the kernel checker's parser (the live checks parse every keystroke).
#include "kernel/kernel_parser.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ptowb::Diagnostics diagnostics;
    (void)ptowb::kernel::parseKernel(std::string_view(reinterpret_cast<const char*>(data), size),
                                     "kernel.py", diagnostics);
    return 0;
}
