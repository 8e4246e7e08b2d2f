#pragma once

#include "kernel/kernel_ast.h"
#include "spec/op_spec.h"

#include <string>
#include <vector>

namespace ptowb::kernel {

// What a kernel parameter is bound to, by name.
struct KernelBinding
{
    enum class Role
    {
        Input,
        Output,
        Param,
        Argument,
        Unbound
    };
    Role role = Role::Unbound;
    int index = -1;
};

struct CheckedKernel
{
    const FunctionDef* function = nullptr; // null when the file does not define it
    std::vector<KernelBinding> bindings;   // one per kernel parameter
    std::vector<std::string> pyptoAliases; // names bound to the pypto module ("pypto", "pp")
    std::vector<std::pair<std::string, std::string>>
        pyptoImports; // `from pypto import exp as e`: "e" -> "exp"
};

// Checks the kernel function against the op: parameters bind by name to inputs, outputs and
// parameters (missing bindings are reported at the `def` line, extra and mistyped ones at the
// parameter), annotations agree with the description, and every pypto call of the file names a
// function of PyPTO with PyPTO's arguments. Python the checks are not about is skipped, never an
// error. Shape problems are found when the simulator runs.
CheckedKernel checkKernel(const Module& module, const OpSpec& spec, const std::string& file,
                          Diagnostics& diagnostics);

// Parses and checks kernel text in one step: what `validate` and the editor report.
Diagnostics checkKernelSource(std::string_view source, const OpSpec& spec, const std::string& file);

} // namespace ptowb::kernel
