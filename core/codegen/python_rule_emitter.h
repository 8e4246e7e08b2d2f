#pragma once

#include "rules/rule_ast.h"

#include <string>
#include <vector>

namespace ptowb::codegen {

// Translates a checked rule into one Python expression, so generated glue evaluates exactly
// the rule the workbench evaluates. Tensor properties and dtypes go through functions the
// surrounding code defines for its context (real tensors, fake tensors, ONNX values):
//   _pt_shape(x) -> list of int, _pt_rank(x), _pt_numel(x), _pt_dtype(x), _pt_dt("float16"),
//   _pt_promote(a, b)
// and the shape helpers of pythonRulePrelude().
struct PythonNames
{
    std::vector<std::string> inputs; // Python expression for each input slot
    std::vector<std::string> params; // ... and each parameter slot
};

std::string emitPython(const rules::Node& root, const PythonNames& names);

// A Python string literal for any text (quotes, backslashes, newlines, non-ASCII escaped), so
// that nothing from a description can break out of generated code.
std::string pythonStringLiteral(const std::string& text);

// Definitions of _pt_broadcast, _pt_reduce, _pt_transpose, _pt_matmul_shape, _pt_ceil_div,
// _pt_prod and _pt_index, with the rule language's semantics and error messages.
const std::string& pythonRulePrelude();

} // namespace ptowb::codegen
