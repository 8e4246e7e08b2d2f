#pragma once

// TorchScript support shared by the reference engine and generated C++ op libraries. This
// header includes libtorch: include it only from core .cpp files and generated op code.
#include "tensor/tensor.h"
#include "types/dtype.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <torch/csrc/jit/api/compilation_unit.h>
#include <torch/torch.h>
#include <unordered_map>
#include <vector>

namespace ptowb::torchscript {

// Compiles reference.py text (the TorchScript subset of Python) the way the workbench does:
// `import` lines resolve `torch`, `torch.nn.functional`, `math` and their aliases, which C++
// TorchScript cannot do on its own. The text is checked first (reference/reference_check.h)
// and the compiled graphs after: a reference outside the subset throws ReferenceRejected, one
// that does not compile the TorchScript error.
std::shared_ptr<torch::jit::CompilationUnit> compile(const std::string& source);

// Why a reference is outside the subset, at its 1-based line and column.
struct ReferenceRejected : std::runtime_error
{
    ReferenceRejected(int line, int col, std::string code, const std::string& message)
        : std::runtime_error("reference.py:" + std::to_string(line) + ":" + std::to_string(col) +
                             ": error: " + message),
          line(line), col(col), code(std::move(code)), message(message)
    {
    }
    int line, col;
    std::string code, message;
};

// Calls `function`, binding each of its arguments by name from `named`; throws when one is
// missing, so argument order in the source does not matter.
c10::IValue callByName(torch::jit::Function& function,
                       const std::unordered_map<std::string, c10::IValue>& named);

at::ScalarType toTorch(DType dtype);
std::optional<DType> fromTorch(at::ScalarType type);

// Copies between the workbench's Tensor and libtorch's (CPU, contiguous). fromAten gives
// nothing for a dtype op outputs cannot have.
at::Tensor toAten(const Tensor& t);
std::optional<Tensor> fromAten(const at::Tensor& t);

} // namespace ptowb::torchscript
