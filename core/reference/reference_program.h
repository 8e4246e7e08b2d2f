#pragma once

#include "diag/diagnostic.h"
#include "rules/rule_value.h"
#include "spec/op_spec.h"
#include "tensor/tensor.h"

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace ptowb {

// The CPU reference, compiled in-process from reference.py (the TorchScript subset of Python)
// with libtorch: no Python interpreter involved. Compiled code is cached by content, so
// recompiling an unchanged file is free. The libtorch-based engine is a module loaded on
// first use, so tools that never run a reference never load libtorch.
class ReferenceProgram
{
public:
    struct LoadResult
    {
        std::shared_ptr<const ReferenceProgram> program; // null when diagnostics has errors
        Diagnostics diagnostics;
    };

    virtual ~ReferenceProgram() = default;

    // Compiles `source` and binds the reference function's arguments, by name, to the op's
    // inputs and parameters. Problems become diagnostics on lines of `fileName`.
    static LoadResult load(const OpSpec& spec, const std::string& source,
                           const std::string& fileName);

    // Runs the reference; returns one tensor per op output, then the value of each mutated input
    // after the call, or why it failed.
    virtual std::variant<std::vector<Tensor>, std::string>
    run(std::span<const Tensor> inputs, std::span<const rules::Value> params) const = 0;

    // 1-based line of the reference function's last `return` (its `def` when none), where
    // problems with what it returns are reported.
    virtual int returnLine() const = 0;

    // Number of programs compiled since start (cache misses), for tests.
    static int compilationCount();
};

// What the engine module provides (see torch_reference.cpp).
class ReferenceEngine
{
public:
    virtual ~ReferenceEngine() = default;
    virtual ReferenceProgram::LoadResult load(const OpSpec& spec, const std::string& source,
                                              const std::string& fileName) const = 0;
    virtual int compilationCount() const = 0;
};

// The module's one exported symbol: extern "C" const ReferenceEngine* ptowb_reference_engine().
inline constexpr const char* kReferenceEngineSymbol = "ptowb_reference_engine";

// Where the engine module may be for a process running `executable`, in the order it is looked
// for: $PTOWB_REFERENCE_MODULE, <exe>/../lib/ptowb, beside the executable, where the build put it.
std::vector<std::string> referenceModulePaths(const std::string& executable);

// Blanks `import` / `from ... import` lines (keeping line numbers) and records the names they
// bind: {"F": "torch.nn.functional", "torch": "torch", "gelu": "torch.nn.functional.gelu"}.
std::string stripImports(const std::string& source,
                         std::vector<std::pair<std::string, std::string>>& aliases);

} // namespace ptowb
