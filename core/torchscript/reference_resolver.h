#pragma once

// How libtorch compiles reference.py: its import lines are blanked first (line numbers kept)
// and what they bound is passed as aliases, which this resolver resolves as Python would —
// `torch`, `torch.nn`, `torch.nn.functional` and `math`, their dtype names and constants, and
// functional ops as the aten operators of the same name, which C++ TorchScript cannot do on its
// own. Every operator a compiled graph calls is then checked, nested blocks included.
//
// Self-contained (libtorch and the standard library only) and in a namespace of its own: the
// workbench compiles references with it, and every generated libtorch op library carries this
// same text, so a deployed op compiles its reference exactly as the workbench did.
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <torch/csrc/jit/api/compilation_unit.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/frontend/resolver.h>
#include <torch/csrc/jit/frontend/sugared_value.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ptowb_reference {

// Python attribute names of dtypes (torch.float32 ...) and the values they name.
using DTypeNames = std::unordered_map<std::string, at::ScalarType>;
using DTypeNamesPtr = std::shared_ptr<const DTypeNames>; // kept by the unit, which compiles lazily
using Aliases = std::vector<std::pair<std::string, std::string>>; // `import x as y` -> {y, x}

struct TorchNamespace : torch::jit::SugaredValue
{
    TorchNamespace(std::string path, DTypeNamesPtr dtypes)
        : path(std::move(path)), dtypes(std::move(dtypes))
    {
    }
    std::string kind() const override { return "module '" + path + "'"; }

    std::shared_ptr<torch::jit::SugaredValue> attr(const torch::jit::SourceRange& loc,
                                                   torch::jit::GraphFunction& m,
                                                   const std::string& field) override
    {
        if (path == "torch") {
            // torch's own aliases of dtype names, then the names of the description's dtypes.
            static const DTypeNames kAliases{{"float", at::kFloat}, {"double", at::kDouble},
                                             {"half", at::kHalf},   {"short", at::kShort},
                                             {"int", at::kInt},     {"long", at::kLong}};
            for (const DTypeNames* names : {&kAliases, dtypes.get()})
                if (auto it = names->find(field); it != names->end())
                    return std::make_shared<torch::jit::SimpleValue>(
                        m.graph()->insertConstant(c10::IValue(it->second), loc));
            if (field == "nn") return std::make_shared<TorchNamespace>("torch.nn", dtypes);
        }
        if (path == "torch.nn" && field == "functional")
            return std::make_shared<TorchNamespace>("torch.nn.functional", dtypes);
        if (path == "math") {
            static const std::unordered_map<std::string, double> kConstants{{"pi", M_PI},
                                                                            {"e", M_E},
                                                                            {"tau", 2 * M_PI},
                                                                            {"inf", HUGE_VAL},
                                                                            {"nan", std::nan("")}};
            if (auto it = kConstants.find(field); it != kConstants.end())
                return std::make_shared<torch::jit::SimpleValue>(
                    m.graph()->insertConstant(c10::IValue(it->second), loc));
        }
        return std::make_shared<torch::jit::BuiltinFunction>(c10::Symbol::aten(field),
                                                             c10::nullopt);
    }

    std::string path;
    DTypeNamesPtr dtypes;
};

struct Resolver : torch::jit::Resolver
{
    Resolver(Aliases aliases, DTypeNamesPtr dtypes)
        : aliases(std::move(aliases)), dtypes(std::move(dtypes))
    {
    }

    std::shared_ptr<torch::jit::SugaredValue>
    resolveValue(const std::string& name, torch::jit::GraphFunction& m,
                 const torch::jit::SourceRange& loc) override
    {
        for (const auto& [alias, target] : aliases) {
            if (alias != name) continue;
            if (target == "torch" || target == "torch.nn" || target == "torch.nn.functional" ||
                target == "math")
                return std::make_shared<TorchNamespace>(target, dtypes);
            // `from torch.nn.functional import gelu`, `from torch import float32`.
            const std::size_t dot = target.rfind('.');
            auto module = std::make_shared<TorchNamespace>(target.substr(0, dot), dtypes);
            return module->attr(loc, m, target.substr(dot + 1));
        }
        // TorchScript knows `torch` without an import; so do we.
        if (name == "torch") return std::make_shared<TorchNamespace>("torch", dtypes);
        return nullptr;
    }

    Aliases aliases;
    DTypeNamesPtr dtypes;
};

// Called with an operator's qualified name ("aten::add") and its 1-based line and column in
// the source; returns normally when the reference may call it, throws when it may not.
using OperatorCheck = std::function<void(const std::string& kind, int line, int col)>;

inline void checkOperators(const torch::jit::Block& block, const OperatorCheck& check)
{
    for (const torch::jit::Node* node : block.nodes()) {
        int line = 1, col = 1;
        const torch::jit::SourceRange range = node->sourceRange();
        if (const auto& text = range.source()) {
            const std::size_t lineIndex = text->lineno_for_offset(range.start());
            line = int(lineIndex) + 1;
            col = int(range.start() - text->offset_for_line(lineIndex)) + 1;
        }
        check(node->kind().toQualString(), line, col);
        for (const torch::jit::Block* inner : node->blocks())
            checkOperators(*inner, check);
    }
}

// Compiles reference text whose import lines are already blanked, given what they bound.
inline std::shared_ptr<torch::jit::CompilationUnit> compile(const std::string& strippedSource,
                                                            Aliases aliases, DTypeNamesPtr dtypes,
                                                            const OperatorCheck& check)
{
    auto unit = std::make_shared<torch::jit::CompilationUnit>();
    unit->define(c10::nullopt, strippedSource,
                 std::make_shared<Resolver>(std::move(aliases), dtypes), nullptr);
    for (torch::jit::Function* function : unit->get_functions())
        checkOperators(*torch::jit::toGraphFunction(*function).graph()->block(), check);
    return unit;
}

// Calls `function`, binding each of its arguments by name from `named`; throws when one is
// missing, so argument order in the source does not matter.
inline c10::IValue callByName(torch::jit::Function& function,
                              const std::unordered_map<std::string, c10::IValue>& named)
{
    std::vector<c10::IValue> stack;
    for (const c10::Argument& arg : function.getSchema().arguments()) {
        auto it = named.find(arg.name());
        if (it == named.end())
            throw std::invalid_argument("the reference argument '" + arg.name() +
                                        "' is not an input or parameter of the op");
        stack.push_back(it->second);
    }
    return function(std::move(stack));
}

} // namespace ptowb_reference
