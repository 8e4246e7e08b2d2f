#include "kernel/pypto_api.h"

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

} // namespace ptowb::kernel
