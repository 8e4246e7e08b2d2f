#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ptowb::kernel {

// One function of the workbench's `pypto` module (core/worker/python/pypto), with PyPTO's
// parameter names and order: positional-or-keyword parameters, of which the first `required`
// must be given, then keyword-only ones. The module declares each function's category beside it;
// the table is printed from the module itself by tests/tools/pypto_api_table.py, and tst_kernel
// checks that the two agree.
struct ApiFunction
{
    std::string_view name;
    std::string_view category; // elementwise, comparison, reduction, matmul, data, control, option
    std::vector<std::string_view> params;
    int required = 0;
    std::vector<std::string_view> keywordOnly;
    bool variadic = false;         // *args
    bool variadicKeywords = false; // **kwargs
    bool simulated = true;         // false: calling it is "not supported by the simulator"
};

std::span<const ApiFunction> pyptoApi();
const ApiFunction* findApi(std::string_view name);
std::vector<std::string> apiNames();
// Other public names of the module: classes, dtypes, enums, DYNAMIC.
std::span<const std::string_view> pyptoConstants();
bool isPyptoConstant(std::string_view name);

// "pypto.matmul(input, mat2, out_dtype, *, a_trans=..., ...)" and what the simulator does with
// it, for the editor's hover help; "" for a name the table does not have. Also knows the
// pypto dtype names (DT_FP16, ...).
std::string apiHelp(std::string_view name);

// The editor's completion words: every function's signature line and every constant, as
// "pypto.add(input_tensor, other)" and "pypto.DT_FP16".
std::vector<std::string> completionEntries();

} // namespace ptowb::kernel
