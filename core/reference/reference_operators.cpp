#include "reference/reference_check.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace ptowb {

namespace {

// The operators a compiled reference may call, by schema name without the overload: an
// allow-list, because a deny-list misses the next `_unsafe` or sparse constructor that trusts its
// arguments (torch._sparse_coo_tensor_unsafe(...).to_dense() writes out of bounds). Each family
// below is plain tensor math whose kernels check their arguments; left out: sparse, quantized
// and storage-level operators (set_, as_strided, from_file, *_unsafe), files and serialization,
// random numbers and their seeds, and every private ('_') operator but TorchScript's own helpers.
// One table for the workbench, the C++ op library and the Python glue, which get it as data.
constexpr std::string_view kAten[] = {
    // elementwise arithmetic and math
    "abs", "absolute", "neg", "negative", "sign", "sgn", "signbit", "reciprocal", "sqrt", "rsqrt",
    "square", "pow", "float_power", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "logaddexp", "logaddexp2", "xlogy", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "arcsinh", "arccosh", "arctanh", "erf", "erfc", "erfinv", "sinc", "hypot", "deg2rad", "rad2deg",
    "floor", "ceil", "round", "trunc", "fix", "frac", "fmod", "remainder", "copysign", "add", "sub",
    "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide", "floor_divide",
    "floordiv", "divmod", "addcmul", "addcdiv", "lerp", "maximum", "minimum", "fmax", "fmin",
    "clamp", "clamp_min", "clamp_max", "clip", "nan_to_num", "where", "heaviside",
    // in place: accumulating, writing a mutated input, assigning to a slice
    "add_", "sub_", "mul_", "div_", "neg_", "abs_", "exp_", "log_", "sqrt_", "rsqrt_", "pow_",
    "clamp_", "clamp_min_", "clamp_max_", "copy_", "fill_", "zero_", "masked_fill_", "index_put_",
    "index_fill_", "index_copy_", "index_add_", "scatter_", "scatter_add_", "relu_", "sigmoid_",
    "tanh_", "addcmul_", "addcdiv_", "lerp_", "floor_", "ceil_", "round_", "trunc_", "reciprocal_",
    "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__",
    // activations
    "relu", "relu6", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus",
    "hardtanh", "hardsigmoid", "hardswish", "hardshrink", "softshrink", "threshold", "glu", "prelu",
    "sigmoid", "logit", "log_sigmoid",
    // comparisons and logic
    "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
    "not_equal", "equal", "isclose", "allclose", "isnan", "isinf", "isfinite", "isposinf",
    "isneginf", "logical_and", "logical_or", "logical_not", "logical_xor", "bitwise_and",
    "bitwise_or", "bitwise_xor", "bitwise_not", "__and__", "__or__", "__xor__", "__lshift__",
    "__rshift__",
    // reductions, scans, sorting
    "sum", "mean", "nansum", "nanmean", "prod", "amax", "amin", "max", "min", "argmax", "argmin",
    "aminmax", "var", "std", "var_mean", "std_mean", "norm", "linalg_vector_norm", "logsumexp",
    "all", "any", "count_nonzero", "cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "sort",
    "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode",
    // normalisation, attention, linear algebra
    "softmax", "log_softmax", "layer_norm", "group_norm", "batch_norm", "instance_norm", "dropout",
    "matmul", "mm", "bmm", "mv", "dot", "vdot", "outer", "addmm", "addmv", "addbmm", "baddbmm",
    "einsum", "linear", "tensordot", "tril", "triu", "diag", "diagonal",
    // shapes and views
    "size", "dim", "numel", "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten",
    "squeeze", "unsqueeze", "permute", "transpose", "t", "numpy_T", "mT", "mH", "adjoint",
    "swapaxes", "swapdims", "movedim", "moveaxis", "contiguous", "expand", "expand_as",
    "broadcast_to", "broadcast_tensors", "cat", "concat", "concatenate", "stack", "hstack",
    "vstack", "split", "split_with_sizes", "tensor_split", "chunk", "unbind", "narrow", "unfold",
    "roll", "flip", "repeat", "repeat_interleave", "tile", "constant_pad_nd", "pad",
    // indexing (each checks its indices against the sizes)
    "select", "slice", "index_select", "gather", "take", "take_along_dim", "index", "masked_fill",
    "masked_select", "masked_scatter", "scatter", "scatter_add", "index_fill", "index_copy",
    "index_add", "one_hot", "embedding",
    // dtypes, copies, properties
    "to", "type_as", "clone", "detach", "is_floating_point", "is_complex", "is_contiguous",
    "is_nonzero", "element_size", "stride", "item",
    // creation
    "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "new_zeros", "new_ones", "new_full", "new_empty", "arange", "linspace", "logspace", "eye",
    "tensor", "scalar_tensor", "as_tensor", "device",
    // TorchScript's own helpers for numbers, strings, lists and dicts
    "Int", "Float", "Bool", "ScalarImplicit", "IntImplicit", "FloatImplicit", "str", "format",
    "warn", "__getitem__", "_set_item", "len", "append", "extend", "insert", "pop", "remove",
    "clear", "copy", "reverse", "list", "__contains__", "keys", "values", "items", "get", "dict",
    "__range_length", "__derive_index", "__not__", "__is__", "__isnot__",
    "__round_to_zero_floordiv"};

constexpr std::string_view kPrim[] = {
    // what the compiler itself emits: constants, control flow, tuples and lists, calls between
    // the reference's own functions, refinements of Optional, properties
    "Constant",
    "If",
    "Loop",
    "ListConstruct",
    "ListUnpack",
    "TupleConstruct",
    "TupleUnpack",
    "TupleIndex",
    "TupleSlice",
    "DictConstruct",
    "CallFunction",
    "RaiseException",
    "Uninitialized",
    "unchecked_cast",
    "unchecked_unwrap_optional",
    "NumToTensor",
    "dtype",
    "device",
    "layout",
    "isinstance",
    "min",
    "max",
    "abs"};

const std::vector<std::string>& allowed()
{
    static const std::vector<std::string> kAllowed = [] {
        std::vector<std::string> names;
        for (std::string_view name : kAten)
            names.push_back("aten::" + std::string(name));
        for (std::string_view name : kPrim)
            names.push_back("prim::" + std::string(name));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        return names;
    }();
    return kAllowed;
}

} // namespace

std::span<const std::string> referenceAllowedOperators()
{
    return allowed();
}

bool referenceOperatorAllowed(const std::string& qualifiedName)
{
    return std::binary_search(allowed().begin(), allowed().end(), qualifiedName);
}

} // namespace ptowb
