#include "kernel/pypto_api.h"

#include "types/dtype.h"

#include <algorithm>

namespace ptowb::kernel {

namespace {

// The rows are printed by tests/tools/pypto_api_table.py from the worker's pypto module into
// pypto_api_rows.inc and pypto_api_constants.inc.
const std::vector<ApiFunction>& table()
{
    static const std::vector<ApiFunction> kApi = {
#include "kernel/pypto_api_rows.inc"
    };
    return kApi;
}

const std::vector<std::string_view>& constants()
{
    static const std::vector<std::string_view> kConstants = {
#include "kernel/pypto_api_constants.inc"
    };
    return kConstants;
}

const char* categorySummary(std::string_view category)
{
    if (category == "elementwise")
        return "Elementwise with broadcasting; a Python number takes the tensor's dtype. Computed "
               "in fp32, rounded to the operand dtype once per op.";
    if (category == "comparison")
        return "Elementwise comparison with broadcasting; gives a bool tensor.";
    if (category == "reduction")
        return "Reduces over dim. The simulator follows vec-tile order: each tile's partial is "
               "rounded to the dtype, then the partials are combined.";
    if (category == "matmul")
        return "Matrix product on the cube unit: accumulates in fp32 and casts to out_dtype.";
    if (category == "data")
        return "Data movement: views share storage with their tensor, writes go through to it.";
    if (category == "control")
        return "Control flow and tiling, run eagerly: loops yield concrete indices.";
    return "An option: accepted and recorded for the run; the simulator does not need it.";
}

} // namespace

std::span<const ApiFunction> pyptoApi()
{
    return table();
}

const ApiFunction* findApi(std::string_view name)
{
    for (const auto& f : table())
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<std::string> apiNames()
{
    std::vector<std::string> out;
    for (const auto& f : table())
        out.emplace_back(f.name);
    return out;
}

std::span<const std::string_view> pyptoConstants()
{
    return constants();
}

bool isPyptoConstant(std::string_view name)
{
    return std::find(constants().begin(), constants().end(), name) != constants().end();
}

std::string apiHelp(std::string_view name)
{
    if (const auto dtype = dtypeFromPypto(name))
        return "pypto." + std::string(name) + ": dtype " + std::string(dtypeInfo(*dtype).name) +
               ".";
    static const char* const kJit = "@pypto.frontend.jit(): compiles the function as a PyPTO "
                                    "kernel. The workbench runs the same function "
                                    "on the CPU, with its own pypto module.";
    if (name == "frontend") return kJit;
    const ApiFunction* f = findApi(name);
    if (!f) {
        if (name == "Tensor")
            return "pypto.Tensor[...] (any shape and dtype) or pypto.Tensor([d0, d1], "
                   "pypto.DT_FP16): the annotation "
                   "of a kernel tensor argument; the checker compares a fixed rank or dtype with "
                   "op.json.";
        if (isPyptoConstant(name)) return "pypto." + std::string(name);
        return {};
    }
    std::string signature = "pypto." + std::string(f->name) + "(";
    auto add = [&](const std::string& part) {
        if (signature.back() != '(') signature += ", ";
        signature += part;
    };
    for (std::size_t k = 0; k < f->params.size(); ++k)
        add(std::string(f->params[k]) + (int(k) >= f->required ? "=..." : ""));
    if (f->variadic)
        add("*args");
    else if (!f->keywordOnly.empty())
        add("*");
    for (auto keyword : f->keywordOnly)
        add(std::string(keyword) + "=...");
    if (f->variadicKeywords) add("**kwargs");
    const bool jit = f->name == "jit" || f->name == "frontend.jit";
    return signature + ")\n" +
           (jit            ? kJit
            : f->simulated ? categorySummary(f->category)
                           : "Not supported by the simulator: calling it is an error at its line.");
}

std::vector<std::string> completionEntries()
{
    std::vector<std::string> entries;
    for (const auto& f : table()) {
        const std::string help = apiHelp(f.name);
        entries.push_back(help.substr(0, help.find('\n')));
    }
    for (auto c : constants())
        entries.push_back("pypto." + std::string(c));
    return entries;
}

} // namespace ptowb::kernel
