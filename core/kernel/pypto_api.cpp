#include "kernel/pypto_api.h"

#include "types/dtype.h"

#include <algorithm>

namespace ptowb::kernel {

namespace {

// Printed by tests/tools/pypto_api_table.py from the worker's pypto module; edit the module, then
// regenerate these rows (tst_kernel fails while the two differ).
const std::vector<ApiFunction>& table()
{
    static const std::vector<ApiFunction> kApi = {
        // BEGIN GENERATED ROWS
        {"abs", "elementwise", {"x"}, 1, {}, false, false, true},
        {"acos", "elementwise", {"x"}, 1, {}, false, false, true},
        {"acosh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"add", "elementwise", {"input_tensor", "other"}, 2, {}, false, false, true},
        {"amax", "reduction", {"input", "dim", "keepdim"}, 2, {}, false, false, true},
        {"amin", "reduction", {"input", "dim", "keepdim"}, 2, {}, false, false, true},
        {"arange", "data", {}, 0, {"dtype"}, true, false, true},
        {"argmax", "reduction", {"input", "dim", "keepdim"}, 1, {}, false, false, true},
        {"argmin", "reduction", {"input", "dim", "keepdim"}, 1, {}, false, false, true},
        {"argsort", "reduction", {"input", "dim", "descending"}, 1, {}, false, false, true},
        {"asin", "elementwise", {"x"}, 1, {}, false, false, true},
        {"asinh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"assemble", "data", {}, 0, {"parallel"}, true, false, true},
        {"atan", "elementwise", {"x"}, 1, {}, false, false, true},
        {"atan2", "elementwise", {"y", "x"}, 2, {}, false, false, true},
        {"atanh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"atomic_add", "option", {}, 0, {}, true, true, false},
        {"axpy_", "elementwise", {"y", "x", "alpha"}, 2, {}, false, false, true},
        {"bitwise_and", "elementwise", {"self", "other"}, 2, {}, false, false, true},
        {"bitwise_left_shift", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"bitwise_not", "elementwise", {"x"}, 1, {}, false, false, true},
        {"bitwise_or", "elementwise", {"input1", "input2"}, 2, {}, false, false, true},
        {"bitwise_right_shift", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"bitwise_xor", "elementwise", {"first", "second"}, 2, {}, false, false, true},
        {"cast", "data", {"input", "dtype", "mode", "satmode"}, 2, {}, false, false, true},
        {"cbrt", "elementwise", {"self"}, 1, {}, false, false, true},
        {"ceil", "elementwise", {"x"}, 1, {}, false, false, true},
        {"ceil_div", "elementwise", {"self", "other"}, 2, {}, false, false, true},
        {"ceildiv", "control", {"a", "b"}, 2, {}, false, false, true},
        {"clip", "elementwise", {"input", "min", "max"}, 1, {}, false, false, true},
        {"clone", "data", {"input"}, 1, {}, false, false, true},
        {"concat", "data", {"tensors", "dim"}, 1, {}, false, false, true},
        {"cond", "control", {"scalar", "file", "lineno"}, 1, {}, false, false, true},
        {"conv", "matmul", {}, 0, {}, true, true, false},
        {"copysign", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"cos", "elementwise", {"x"}, 1, {}, false, false, true},
        {"cosh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"create_shmem_signal", "option", {}, 0, {}, true, true, false},
        {"create_shmem_tensor", "option", {}, 0, {}, true, true, false},
        {"cumprod", "reduction", {}, 0, {}, true, true, false},
        {"cumsum", "reduction", {}, 0, {}, true, true, false},
        {"deinterleave", "option", {}, 0, {}, true, true, false},
        {"dequantize", "option", {}, 0, {}, true, true, false},
        {"div", "elementwise", {"input", "other", "precision_type"}, 2, {}, false, false, true},
        {"eq", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"erf", "elementwise", {"x"}, 1, {}, false, false, true},
        {"erfc", "elementwise", {"x"}, 1, {}, false, false, true},
        {"exp", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"exp2", "elementwise", {"x"}, 1, {}, false, false, true},
        {"expand_clone", "data", {"input", "shape"}, 2, {"valid_shape"}, false, false, true},
        {"expand_exp_dif", "option", {}, 0, {}, true, true, false},
        {"expm1", "elementwise", {"x"}, 1, {}, false, false, true},
        {"fillpad", "option", {}, 0, {}, true, true, false},
        {"floor", "elementwise", {"x"}, 1, {}, false, false, true},
        {"floor_div", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"fmod", "elementwise", {"input", "other", "precision_type"}, 2, {}, false, false, true},
        {"from_torch", "option", {}, 0, {}, true, true, false},
        {"full", "data", {"size", "fill_value", "dtype"}, 3, {"valid_shape"}, false, false, true},
        {"gather", "data", {"input", "dim", "index"}, 3, {}, false, false, true},
        {"gathermask", "option", {}, 0, {}, true, true, false},
        {"gcd", "elementwise", {}, 0, {}, true, true, false},
        {"ge", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"get_codegen_options", "option", {}, 0, {}, true, true, true},
        {"get_cube_tile_shapes", "control", {}, 0, {}, false, false, true},
        {"get_debug_options", "option", {}, 0, {}, true, true, true},
        {"get_host_options", "option", {}, 0, {}, true, true, true},
        {"get_pass_options", "option", {}, 0, {}, true, true, true},
        {"get_vec_tile_shapes", "control", {}, 0, {}, false, false, true},
        {"get_verify_options", "option", {}, 0, {}, true, true, true},
        {"greater", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"gt", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"hypot", "elementwise", {"self", "other"}, 2, {}, false, false, true},
        {"index_add", "option", {}, 0, {}, true, true, false},
        {"index_add_", "option", {}, 0, {}, true, true, false},
        {"index_put_", "option", {}, 0, {}, true, true, false},
        {"index_select", "data", {"input", "dim", "index"}, 3, {}, false, false, true},
        {"interleave", "option", {}, 0, {}, true, true, false},
        {"is_loop_begin", "control", {"scalar"}, 1, {}, false, false, true},
        {"is_loop_end", "control", {"scalar"}, 1, {}, false, false, true},
        {"isfinite", "elementwise", {"x"}, 1, {}, false, false, true},
        {"isnan", "elementwise", {"x"}, 1, {}, false, false, true},
        {"jit", "control", {"fn"}, 0, {}, false, true, true},
        {"le", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"log", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"log10", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"log1p", "elementwise", {"x"}, 1, {}, false, false, true},
        {"log2", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"logical_and", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"logical_not", "elementwise", {"x"}, 1, {}, false, false, true},
        {"loop", "control", {}, 0, {}, true, true, true},
        {"loop_unroll", "control", {}, 0, {}, true, true, true},
        {"lrelu", "elementwise", {"other", "negative_slope"}, 1, {}, false, false, true},
        {"lt", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"matmul",
         "matmul",
         {"input", "mat2", "out_dtype"},
         3,
         {"a_trans", "b_trans", "c_matrix_nz", "extend_params"},
         false,
         false,
         true},
        {"max", "control", {"a", "b"}, 2, {}, false, false, true},
        {"maximum", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"min", "control", {"a", "b"}, 2, {}, false, false, true},
        {"minimum", "elementwise", {"input", "other"}, 2, {}, false, false, true},
        {"mrgsort", "option", {}, 0, {}, true, true, false},
        {"mul", "elementwise", {"input_tensor", "other"}, 2, {}, false, false, true},
        {"my_symbolic_pe", "option", {}, 0, {}, true, true, false},
        {"ne", "comparison", {"input", "other"}, 2, {}, false, false, true},
        {"neg", "elementwise", {"x"}, 1, {}, false, false, true},
        {"normal", "option", {}, 0, {}, true, true, false},
        {"one_hot", "data", {"input", "num_classes"}, 2, {}, false, false, true},
        {"ones", "data", {}, 0, {"dtype"}, true, false, true},
        {"pack", "option", {}, 0, {}, true, true, false},
        {"pad", "data", {"x", "padding", "mode", "value"}, 2, {}, false, false, true},
        {"pass_verify_print", "option", {}, 0, {"cond"}, true, false, true},
        {"pass_verify_save", "option", {"tensor", "fname", "cond"}, 2, {}, false, true, true},
        {"permute", "data", {"input_tensor", "dims"}, 2, {}, false, false, true},
        {"pow", "elementwise", {"base", "other", "precision_type"}, 2, {}, false, false, true},
        {"prelu", "elementwise", {"self", "weight"}, 2, {}, false, false, true},
        {"prod", "reduction", {"self", "dim", "keepdim"}, 2, {}, false, false, true},
        {"quant_mx", "option", {}, 0, {}, true, true, false},
        {"quantize", "option", {}, 0, {}, true, true, false},
        {"reciprocal", "elementwise", {"a", "precision_type"}, 1, {}, false, false, true},
        {"relu", "elementwise", {"x"}, 1, {}, false, false, true},
        {"remainder",
         "elementwise",
         {"input", "other", "precision_type"},
         2,
         {},
         false,
         false,
         true},
        {"reset_options", "option", {}, 0, {}, true, true, true},
        {"reshape", "data", {"input", "shape"}, 2, {"valid_shape", "inplace"}, false, false, true},
        {"rms_norm", "reduction", {"input", "gamma", "epsilon"}, 1, {}, false, false, true},
        {"round", "elementwise", {"input", "decimals"}, 1, {}, false, false, true},
        {"rsqrt", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"scaled_mm", "matmul", {}, 0, {}, true, true, false},
        {"scatter", "data", {"input", "dim", "index", "src"}, 4, {"reduce"}, false, false, true},
        {"scatter_", "data", {"input", "dim", "index", "src"}, 4, {"reduce"}, false, false, true},
        {"scatter_update", "data", {"input", "dim", "index", "src"}, 4, {}, false, false, true},
        {"set_codegen_options", "option", {}, 0, {}, true, true, true},
        {"set_conv_tile_shapes", "option", {}, 0, {}, true, true, true},
        {"set_cube_tile_shapes",
         "control",
         {"m", "k", "n", "enable_split_k"},
         3,
         {},
         false,
         false,
         true},
        {"set_debug_options", "option", {}, 0, {}, true, true, true},
        {"set_global_config", "option", {}, 0, {}, true, true, true},
        {"set_host_options", "option", {}, 0, {}, true, true, true},
        {"set_matrix_size", "option", {}, 0, {}, true, true, true},
        {"set_options", "option", {}, 0, {}, true, true, true},
        {"set_pass_config", "option", {}, 0, {}, true, true, true},
        {"set_pass_default_config", "option", {}, 0, {}, true, true, true},
        {"set_pass_options", "option", {}, 0, {}, true, true, true},
        {"set_print_options", "option", {}, 0, {}, true, true, true},
        {"set_runtime_options", "option", {}, 0, {}, true, true, true},
        {"set_semantic_label", "option", {}, 0, {}, true, true, true},
        {"set_vec_tile_shapes", "control", {}, 0, {}, true, false, true},
        {"set_verify_golden_data", "option", {}, 0, {}, true, true, false},
        {"set_verify_options", "option", {}, 0, {}, true, true, true},
        {"shmem_barrier_all", "option", {}, 0, {}, true, true, false},
        {"shmem_clear_data", "option", {}, 0, {}, true, true, false},
        {"shmem_clear_signal", "option", {}, 0, {}, true, true, false},
        {"shmem_get", "option", {}, 0, {}, true, true, false},
        {"shmem_put", "option", {}, 0, {}, true, true, false},
        {"shmem_signal", "option", {}, 0, {}, true, true, false},
        {"shmem_view", "option", {}, 0, {}, true, true, false},
        {"shmem_wait_until", "option", {}, 0, {}, true, true, false},
        {"sigmoid", "elementwise", {"x"}, 1, {}, false, false, true},
        {"sign", "elementwise", {"x"}, 1, {}, false, false, true},
        {"signbit", "elementwise", {"a"}, 1, {}, false, false, true},
        {"sin", "elementwise", {"x"}, 1, {}, false, false, true},
        {"sinh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"softmax", "reduction", {"input", "dim"}, 2, {}, false, false, true},
        {"sort32", "option", {}, 0, {}, true, true, false},
        {"sqrt", "elementwise", {"input", "precision_type"}, 1, {}, false, false, true},
        {"sub", "elementwise", {"input_tensor", "other"}, 2, {}, false, false, true},
        {"sum", "reduction", {"input", "dim", "keepdim"}, 2, {}, false, false, true},
        {"tan", "elementwise", {"x"}, 1, {}, false, false, true},
        {"tanh", "elementwise", {"x"}, 1, {}, false, false, true},
        {"topk", "reduction", {"input", "k", "dim", "largest", "algo"}, 2, {}, false, false, true},
        {"transpose", "data", {"input", "dim0", "dim1"}, 3, {}, false, false, true},
        {"tril", "option", {}, 0, {}, true, true, false},
        {"triu", "option", {}, 0, {}, true, true, false},
        {"trunc", "elementwise", {"x"}, 1, {}, false, false, true},
        {"uniform", "option", {}, 0, {}, true, true, false},
        {"unpack", "option", {}, 0, {}, true, true, false},
        {"unsqueeze", "data", {"input", "dim"}, 2, {}, false, false, true},
        {"var", "reduction", {"input", "dim"}, 1, {"correction", "keepdim"}, false, false, true},
        {"verify", "option", {}, 0, {}, true, true, false},
        {"view",
         "data",
         {"input", "shape", "offsets"},
         1,
         {"valid_shape", "dtype"},
         false,
         false,
         true},
        {"where", "comparison", {"condition", "input", "other"}, 3, {}, false, false, true},
        {"zeros", "data", {}, 0, {"dtype"}, true, false, true},
        {"frontend.dynamic", "control", {"name"}, 1, {}, false, false, true},
        {"frontend.function", "control", {"fn"}, 0, {}, true, true, true},
        {"frontend.jit", "control", {"fn"}, 0, {}, false, true, true},
        // END GENERATED ROWS
    };
    return kApi;
}

const std::vector<std::string_view>& constants()
{
    static const std::vector<std::string_view> kConstants = {
        // BEGIN GENERATED CONSTANTS
        "CastMode",
        "DT_BF16",
        "DT_BOOL",
        "DT_DOUBLE",
        "DT_FP16",
        "DT_FP32",
        "DT_FP8",
        "DT_FP8E4M3",
        "DT_FP8E5M2",
        "DT_FP8E8M0",
        "DT_HF4",
        "DT_HF8",
        "DT_INT16",
        "DT_INT32",
        "DT_INT4",
        "DT_INT64",
        "DT_INT8",
        "DT_UINT16",
        "DT_UINT32",
        "DT_UINT64",
        "DT_UINT8",
        "DYNAMIC",
        "DataType",
        "Element",
        "PrecisionType",
        "RunMode",
        "STATIC",
        "SaturationMode",
        "SimulatorError",
        "SymInt",
        "SymbolicScalar",
        "Tensor",
        "TensorAnnotation",
        "TileOpFormat",
        "TopKAlgo",
        "options",
        "symbolic_scalar",
        "tensor",
        "frontend.JitFunction",
        "frontend.SymbolicScalar",
        // END GENERATED CONSTANTS
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
