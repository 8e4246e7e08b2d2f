#pragma once

// The kernel checker, internal to core/kernel: the walk over the kernel's statements and its
// pypto calls is in kernel_check.cpp, parameters and annotations in kernel_check_bind.cpp.
#include "kernel/kernel_check.h"

#include <map>
#include <optional>

namespace ptowb::kernel {

// What an annotation says about a kernel parameter.
struct Annotation
{
    enum class Kind
    {
        Tensor,    // pypto.Tensor[...], pypto.Tensor(shape, dtype), pypto.tensor(), an alias of one
        NotTensor, // int, float, List[int], ...
        Unknown    // anything else (a string, torch.Tensor, Optional[...]): nothing to check
    };
    Kind kind = Kind::Unknown;
    ExprPtr shape; // a list or tuple of dims, when the annotation gives one
    ExprPtr dtype; // pypto.DT_*, when the annotation gives one
};

// What op.json binds the kernel parameter `name` to (Unbound: nothing).
KernelBinding bindingOf(const OpSpec& spec, const std::string& name);

class Checker
{
public:
    Checker(const OpSpec& spec, const std::string& file, Diagnostics& diagnostics)
        : m_spec(spec), m_file(file), m_diagnostics(diagnostics)
    {
    }

    CheckedKernel run(const Module& module);

private:
    void error(Pos pos, const std::string& code, const std::string& message);
    void addImports(const std::vector<std::pair<std::string, std::string>>& imports);
    bool isPypto(const ExprPtr& e) const;
    std::optional<DType> dtypeConstant(const ExprPtr& e) const;
    std::string apiName(const ExprPtr& f) const;

    // --- kernel_check_bind.cpp ---
    void collectValues(const std::vector<Stmt>& statements);
    bool isTensorClass(const ExprPtr& e) const;
    Annotation annotation(const ExprPtr& a, int depth = 0) const;
    void bind(const FunctionDef& f, CheckedKernel& out);
    void checkTensorAnnotation(const Param& p, bool input, int index, const Annotation& a);
    void checkParamAnnotation(const Param& p, int index, const Annotation& a);

    // --- kernel_check.cpp ---
    void statement(const Stmt& s, bool nested);
    void function(const FunctionDef& f);
    void expression(const ExprPtr& e);
    void call(const Expr& e);

    const OpSpec& m_spec;
    const std::string& m_file;
    Diagnostics& m_diagnostics;
    CheckedKernel* m_out = nullptr;
    std::vector<std::pair<std::string, std::string>> m_imports; // every import, by bound name
    std::map<std::string, ExprPtr> m_values; // module-level `NAME = value`, the last one
    // The PyPTO release installed in the interpreter kernels run in, when the workbench knows
    // what it lacks ("" otherwise), and that interpreter.
    std::string m_release, m_releasePython;
};

} // namespace ptowb::kernel
