// op.json text -> the loader (every check it makes), then the first case's output inference.
#include "spec/inference.h"
#include "spec/op_spec_loader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ptowb::SpecLoadResult loaded = ptowb::loadOpSpecText(
        std::string(reinterpret_cast<const char*>(data), size), "op.json", "");
    if (!loaded.usable() || loaded.spec.cases.empty()) return 0;
    const ptowb::CaseSpec& c = loaded.spec.cases.front();
    std::vector<ptowb::rules::TensorInfo> inputs;
    for (const auto& in : c.inputs)
        inputs.push_back({in.shape, in.dtype});
    (void)ptowb::inferOutputs(loaded.spec, inputs, c.params);
    return 0;
}
