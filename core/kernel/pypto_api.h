#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptowb::kernel {

// What the simulator does with a pypto function.
enum class ApiKind {
    Unary,       // elementwise f(input)
    Binary,      // elementwise f(input, other)
    Compare,     // elementwise comparison giving bool
    Reduction,   // sum / amax / amin over dims
    Softmax,
    Matmul,
    Cast,
    View,
    Reshape,
    Transpose,
    Unsqueeze,
    Full,
    Assemble,
    Concat,
    Clip,
    Where,
    TileShapes,  // set_vec_tile_shapes / set_cube_tile_shapes
    Loop,        // pypto.loop
    LoopMarker,  // is_loop_begin / is_loop_end
};

// One function of the pypto API the simulator supports, with PyPTO's argument names and
// order (docs/api/operation/pypto-<name>.md): positional-or-keyword parameters, of which the
// first `required` must be given, then keyword-only ones.
struct ApiFunction
{
    std::string_view name;
    ApiKind kind;
    std::vector<std::string_view> params;
    int required = 0;
    std::vector<std::string_view> keywordOnly;
    bool variadic = false; // set_vec_tile_shapes(*dims)
};

std::span<const ApiFunction> pyptoApi();
const ApiFunction* findApi(std::string_view name);
std::vector<std::string> apiNames();

// "pypto.matmul(input, mat2, out_dtype, *, a_trans=..., ...)" and what the simulator does with
// it, for the editor's hover help; "" for a name the table does not have. Also knows the
// pypto dtype names (DT_FP16, ...).
std::string apiHelp(std::string_view name);

} // namespace ptowb::kernel
