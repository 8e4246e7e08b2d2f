#include "torchscript/torchscript.h"

#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "torchscript/reference_resolver.h"

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ptowb::torchscript {

namespace jit = torch::jit;

namespace {

// The Python attribute names of the type table's dtypes (torch.float32 ...).
ptowb_reference::DTypeNamesPtr dtypeNames()
{
    static const auto kNames = [] {
        auto names = std::make_shared<ptowb_reference::DTypeNames>();
        for (const auto& info : allDTypes())
            names->emplace(std::string(info.torchName), toTorch(info.dtype));
        return names;
    }();
    return kNames;
}

} // namespace

std::shared_ptr<jit::CompilationUnit> compile(const std::string& source)
{
    // Before libtorch parses anything: its parser recurses once per bracket, its compiler once
    // per operator, and neither has a limit of its own.
    for (const Diagnostic& d : checkReferenceSource(source, "reference.py"))
        if (d.isError()) throw ReferenceRejected(d.line, d.col, d.code, d.message);
    ptowb_reference::Aliases aliases;
    const std::string stripped = stripImports(source, aliases);
    return ptowb_reference::compile(
        stripped, std::move(aliases), dtypeNames(), [](const std::string& kind, int line, int col) {
            // Whatever spelling or alias reached it, an operator off the allow-list is refused.
            if (!referenceOperatorAllowed(kind))
                throw ReferenceRejected(line, col, "reference.forbidden",
                                        "the reference calls " + kind +
                                            ", which is not among the operators a reference may "
                                            "use (tensor math; no sparse, quantized, storage, "
                                            "file, random or private operators)");
        });
}

c10::IValue callByName(jit::Function& function,
                       const std::unordered_map<std::string, c10::IValue>& named)
{
    return ptowb_reference::callByName(function, named);
}

at::ScalarType toTorch(DType dtype)
{
    // Built once from the type table's torch C++ names, so the table stays the one mapping.
    static const auto kByDType = [] {
        std::array<at::ScalarType, 16> out{};
        for (const auto& info : allDTypes())
            for (int k = 0; k < int(at::ScalarType::NumOptions); ++k)
                if (c10::toString(at::ScalarType(k)) == info.torchCpp)
                    out[std::size_t(info.dtype)] = at::ScalarType(k);
        return out;
    }();
    return kByDType[std::size_t(dtype)];
}

std::optional<DType> fromTorch(at::ScalarType type)
{
    for (const auto& info : allDTypes())
        if (toTorch(info.dtype) == type) return info.dtype;
    return std::nullopt;
}

at::Tensor toAten(const Tensor& t)
{
    at::Tensor out = at::empty(t.shape(), at::TensorOptions().dtype(toTorch(t.dtype())));
    if (t.byteSize()) std::memcpy(out.data_ptr(), t.bytes(), t.byteSize());
    return out;
}

std::optional<Tensor> fromAten(const at::Tensor& source)
{
    const at::Tensor t = source.contiguous().cpu();
    const auto dtype = fromTorch(t.scalar_type());
    if (!dtype) return std::nullopt;
    Tensor out(*dtype, t.sizes().vec());
    if (out.byteSize()) std::memcpy(out.mutableBytes(), t.data_ptr(), out.byteSize());
    return out;
}

} // namespace ptowb::torchscript
