// kernel.py text -> the kernel checker's parser and checks (the live checks run both on every
// keystroke), against a description whose kernel and input names the fuzzer can hit.
#include "kernel/kernel_check.h"
#include "kernel/kernel_parser.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const ptowb::OpSpec spec = [] {
        ptowb::OpSpec s;
        s.kernel.function = "k";
        s.inputs.push_back({"x", {ptowb::DType::Float32}, 2, "", false});
        s.outputs.push_back({"y", "", "", "", std::nullopt, std::nullopt, std::nullopt});
        return s;
    }();
    ptowb::Diagnostics diagnostics;
    const ptowb::kernel::Module module = ptowb::kernel::parseKernel(
        std::string_view(reinterpret_cast<const char*>(data), size), "kernel.py", diagnostics);
    (void)ptowb::kernel::checkKernel(module, spec, "kernel.py", diagnostics);
    return 0;
}
