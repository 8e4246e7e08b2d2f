#include "torchscript/torchscript.h"

#include "reference/reference_check.h"
#include "reference/reference_program.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/frontend/resolver.h>
#include <torch/csrc/jit/frontend/sugared_value.h>

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ptowb::torchscript {

namespace jit = torch::jit;

namespace {

// torch's Python attribute names for dtypes, aliases included (torch.half, torch.long ...).
std::optional<at::ScalarType> torchAttributeDType(const std::string& name)
{
    static const std::unordered_map<std::string, at::ScalarType> kAliases{
        {"float", at::kFloat}, {"double", at::kDouble}, {"half", at::kHalf},
        {"short", at::kShort}, {"int", at::kInt},       {"long", at::kLong},
    };
    if (auto it = kAliases.find(name); it != kAliases.end()) return it->second;
    for (const auto& info : allDTypes())
        if (info.torchName == name) return toTorch(info.dtype);
    return std::nullopt;
}

// `torch`, `torch.nn`, `torch.nn.functional` and `math` as Python would resolve them: dtype
// names are constants, functional ops are the aten operators of the same name.
struct TorchNamespace : jit::SugaredValue
{
    explicit TorchNamespace(std::string path) : path(std::move(path)) {}
    std::string kind() const override { return "module '" + path + "'"; }

    std::shared_ptr<jit::SugaredValue> attr(const jit::SourceRange& loc, jit::GraphFunction& m, const std::string& field) override
    {
        if (path == "torch") {
            if (auto dtype = torchAttributeDType(field))
                return std::make_shared<jit::SimpleValue>(m.graph()->insertConstant(c10::IValue(*dtype), loc));
            if (field == "nn") return std::make_shared<TorchNamespace>("torch.nn");
        }
        if (path == "torch.nn" && field == "functional") return std::make_shared<TorchNamespace>("torch.nn.functional");
        if (path == "math") {
            static const std::unordered_map<std::string, double> kConstants{
                {"pi", M_PI}, {"e", M_E}, {"tau", 2 * M_PI}, {"inf", HUGE_VAL}, {"nan", std::nan("")}};
            if (auto it = kConstants.find(field); it != kConstants.end())
                return std::make_shared<jit::SimpleValue>(m.graph()->insertConstant(c10::IValue(it->second), loc));
        }
        return std::make_shared<jit::BuiltinFunction>(c10::Symbol::aten(field), c10::nullopt);
    }

    std::string path;
};

struct ReferenceResolver : jit::Resolver
{
    std::vector<std::pair<std::string, std::string>> aliases;

    std::shared_ptr<jit::SugaredValue> resolveValue(const std::string& name, jit::GraphFunction& m, const jit::SourceRange& loc) override
    {
        for (const auto& [alias, target] : aliases) {
            if (alias != name) continue;
            const std::size_t dot = target.rfind('.');
            if (target == "torch" || target == "torch.nn" || target == "torch.nn.functional" || target == "math")
                return std::make_shared<TorchNamespace>(target);
            // `from torch.nn.functional import gelu`, `from torch import float32`.
            auto module = std::make_shared<TorchNamespace>(target.substr(0, dot));
            return module->attr(loc, m, target.substr(dot + 1));
        }
        // TorchScript knows `torch` without an import; so do we.
        if (name == "torch") return std::make_shared<TorchNamespace>("torch");
        return nullptr;
    }
};

// Every operator a compiled graph calls, nested blocks included, must be one without effects
// outside the op: this holds whatever spelling or alias reached it.
void checkOperators(const jit::Block& block)
{
    for (const jit::Node* node : block.nodes()) {
        const std::string kind = node->kind().toQualString();
        if (!referenceOperatorAllowed(kind)) {
            int line = 1, col = 1;
            const jit::SourceRange range = node->sourceRange();
            if (const auto& text = range.source()) {
                const std::size_t lineIndex = text->lineno_for_offset(range.start());
                line = int(lineIndex) + 1;
                col = int(range.start() - text->offset_for_line(lineIndex)) + 1;
            }
            throw ReferenceRejected(
                line, col, "reference.forbidden",
                "the reference calls " + kind +
                    ", which reaches outside the op (files, processes or the operator registry)");
        }
        for (const jit::Block* inner : node->blocks())
            checkOperators(*inner);
    }
}

} // namespace

std::shared_ptr<jit::CompilationUnit> compile(const std::string& source)
{
    // Before libtorch parses anything: its parser recurses once per bracket, its compiler once
    // per operator, and neither has a limit of its own.
    for (const Diagnostic& d : checkReferenceSource(source, "reference.py"))
        if (d.isError()) throw ReferenceRejected(d.line, d.col, d.code, d.message);
    auto resolver = std::make_shared<ReferenceResolver>();
    const std::string stripped = stripImports(source, resolver->aliases);
    auto unit = std::make_shared<jit::CompilationUnit>();
    unit->define(c10::nullopt, stripped, resolver, nullptr);
    for (jit::Function* function : unit->get_functions())
        checkOperators(*jit::toGraphFunction(*function).graph()->block());
    return unit;
}

c10::IValue callByName(jit::Function& function, const std::unordered_map<std::string, c10::IValue>& named)
{
    std::vector<c10::IValue> stack;
    for (const c10::Argument& arg : function.getSchema().arguments()) {
        auto it = named.find(arg.name());
        if (it == named.end()) throw std::invalid_argument("the reference argument '" + arg.name() + "' is not an input or parameter of the op");
        stack.push_back(it->second);
    }
    return function(std::move(stack));
}

at::ScalarType toTorch(DType dtype)
{
    // Built once from the type table's torch C++ names, so the table stays the one mapping.
    static const auto kByDType = [] {
        std::array<at::ScalarType, 16> out{};
        for (const auto& info : allDTypes())
            for (int k = 0; k < int(at::ScalarType::NumOptions); ++k)
                if (c10::toString(at::ScalarType(k)) == info.torchCpp) out[std::size_t(info.dtype)] = at::ScalarType(k);
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

DType ptDType(const at::Tensor& t)
{
    if (auto d = fromTorch(t.scalar_type())) return *d;
    throw std::invalid_argument(std::string("tensors of dtype ") + c10::toString(t.scalar_type()) + " are not supported by this op");
}

} // namespace ptowb::torchscript
