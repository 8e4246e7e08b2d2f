#include "kernel/pypto_api.h"

#include "types/dtype.h"

namespace ptowb::kernel {

namespace {

const std::vector<ApiFunction>& table()
{
    static const std::vector<ApiFunction> kApi = [] {
        std::vector<ApiFunction> api;
        for (const char* name : {"abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "neg", "sigmoid", "tanh", "relu", "sin", "cos", "ceil", "floor",
                                 "round", "trunc", "logical_not"})
            api.push_back({name, ApiKind::Unary, {"input"}, 1, {}});
        api.push_back({"add", ApiKind::Binary, {"input", "other"}, 2, {"alpha"}});
        api.push_back({"sub", ApiKind::Binary, {"input", "other"}, 2, {"alpha"}});
        for (const char* name : {"mul", "maximum", "minimum"}) api.push_back({name, ApiKind::Binary, {"input", "other"}, 2, {}});
        api.push_back({"div", ApiKind::Binary, {"input", "other", "precision_type"}, 2, {}});
        api.push_back({"pow", ApiKind::Binary, {"input", "other"}, 2, {}});
        for (const char* name : {"eq", "ne", "lt", "le", "gt", "ge"}) api.push_back({name, ApiKind::Compare, {"input", "other"}, 2, {}});
        for (const char* name : {"sum", "amax", "amin"}) api.push_back({name, ApiKind::Reduction, {"input", "dim", "keepdim"}, 1, {}});
        api.push_back({"softmax", ApiKind::Softmax, {"input", "dim"}, 1, {}});
        api.push_back({"matmul", ApiKind::Matmul, {"input", "mat2", "out_dtype"}, 3, {"a_trans", "b_trans", "c_matrix_nz", "extend_params"}});
        api.push_back({"cast", ApiKind::Cast, {"input", "dtype", "mode"}, 2, {}});
        api.push_back({"view", ApiKind::View, {"input", "shape", "offsets"}, 1, {"valid_shape", "dtype"}});
        api.push_back({"reshape", ApiKind::Reshape, {"input", "shape"}, 2, {"valid_shape", "inplace"}});
        api.push_back({"transpose", ApiKind::Transpose, {"input", "dim0", "dim1"}, 3, {}});
        api.push_back({"unsqueeze", ApiKind::Unsqueeze, {"input", "dim"}, 2, {}});
        api.push_back({"full", ApiKind::Full, {"size", "fill_value", "dtype"}, 3, {"valid_shape"}});
        api.push_back({"assemble", ApiKind::Assemble, {"input", "offsets", "out"}, 3, {}});
        api.push_back({"concat", ApiKind::Concat, {"tensors", "dim"}, 1, {}});
        api.push_back({"clip", ApiKind::Clip, {"input", "min", "max"}, 1, {}});
        api.push_back({"where", ApiKind::Where, {"condition", "input", "other"}, 3, {}});
        api.push_back({"set_vec_tile_shapes", ApiKind::TileShapes, {}, 0, {}, true});
        api.push_back({"set_cube_tile_shapes", ApiKind::TileShapes, {"m", "k", "n"}, 3, {"enable_split_k"}});
        api.push_back({"loop", ApiKind::Loop, {"start", "stop", "step"}, 1, {"name", "idx_name", "unroll_list"}});
        api.push_back({"is_loop_begin", ApiKind::LoopMarker, {"index"}, 1, {}});
        api.push_back({"is_loop_end", ApiKind::LoopMarker, {"index"}, 1, {}});
        return api;
    }();
    return kApi;
}

} // namespace

std::span<const ApiFunction> pyptoApi() { return table(); }

const ApiFunction* findApi(std::string_view name)
{
    for (const auto& f : table())
        if (f.name == name) return &f;
    return nullptr;
}

std::vector<std::string> apiNames()
{
    std::vector<std::string> out;
    for (const auto& f : table()) out.emplace_back(f.name);
    return out;
}

namespace {

const char* kindSummary(ApiKind kind)
{
    switch (kind) {
    case ApiKind::Unary: return "Elementwise. Computed in fp32, rounded to the input's dtype.";
    case ApiKind::Binary: return "Elementwise with broadcasting; a Python number takes the tensor's dtype. Computed in fp32, rounded to the operand dtype.";
    case ApiKind::Compare: return "Elementwise comparison with broadcasting; gives a bool tensor.";
    case ApiKind::Reduction: return "Reduces over dim (all dims when omitted). The simulator follows vec-tile order: each tile's partial is rounded to the dtype, then combined.";
    case ApiKind::Softmax: return "Softmax over dim, in fp32, rounded to the input's dtype.";
    case ApiKind::Matmul: return "Matrix product on the cube unit: accumulates in fp32 and casts to out_dtype. a_trans / b_trans transpose the operands.";
    case ApiKind::Cast: return "Converts to dtype (rounding to nearest even).";
    case ApiKind::View: return "A window of the input at offsets with the given shape; writes through to the input.";
    case ApiKind::Reshape: return "Same elements, new shape (C order).";
    case ApiKind::Transpose: return "Swaps two dims.";
    case ApiKind::Unsqueeze: return "Inserts a dim of size 1.";
    case ApiKind::Full: return "A new tensor of the given size filled with fill_value.";
    case ApiKind::Assemble: return "Writes input into out at offsets.";
    case ApiKind::Concat: return "Joins tensors along dim.";
    case ApiKind::Clip: return "Clamps to [min, max].";
    case ApiKind::Where: return "Picks input where condition is true, else other.";
    case ApiKind::TileShapes: return "Sets the tile shape for the following ops; the simulator checks each tile's live buffers against the platform's unified buffer.";
    case ApiKind::Loop: return "A loop over start..stop by step, like range().";
    case ApiKind::LoopMarker: return "True on the first / last iteration of a pypto.loop.";
    }
    return "";
}

} // namespace

std::string apiHelp(std::string_view name)
{
    if (const auto dtype = dtypeFromPypto(name)) return "pypto." + std::string(name) + ": dtype " + std::string(dtypeInfo(*dtype).name) + ".";
    const ApiFunction* f = findApi(name);
    if (!f) {
        if (name == "Tensor") return "pypto.Tensor[...] (any shape and dtype) or pypto.Tensor([d0, d1], pypto.DT_FP16): the annotation "
                                     "of a kernel tensor argument; the checker compares a fixed rank or dtype with op.json.";
        if (name == "frontend" || name == "jit") return "@pypto.frontend.jit(): compiles the function as a PyPTO kernel. "
                                                        "The workbench's simulator runs the same function on the CPU.";
        return {};
    }
    std::string signature = "pypto." + std::string(f->name) + "(";
    auto add = [&](const std::string& part) {
        if (signature.back() != '(') signature += ", ";
        signature += part;
    };
    if (f->variadic) add("*dims");
    for (std::size_t k = 0; k < f->params.size(); ++k) add(std::string(f->params[k]) + (int(k) >= f->required ? "=..." : ""));
    if (!f->keywordOnly.empty()) add("*");
    for (auto keyword : f->keywordOnly) add(std::string(keyword) + "=...");
    return signature + ")\n" + kindSummary(f->kind);
}

} // namespace ptowb::kernel
