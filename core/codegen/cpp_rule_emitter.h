#pragma once

#include "rules/rule_ast.h"

#include <string>
#include <vector>

namespace ptowb::codegen {

// Translates a checked rule into one C++ expression over rules/emitted_support.h, so that the
// generated ONNX shape inference evaluates the rule the workbench evaluates (the libtorch op
// and the CANN sources use cann_rule_emitter.h, which needs no ptowb header). Tensor
// properties go through functions the surrounding code defines:
//   ptShape(x) -> std::vector<int64_t>, ptRank(x), ptNumel(x), ptDType(x) -> ptowb::DType.
struct CppNames
{
    std::vector<std::string> inputs; // C++ expression for each input slot
    std::vector<std::string> params; // ... and each parameter slot
};

std::string emitCpp(const rules::Node& root, const CppNames& names);

// The C++ type a rule of this type evaluates to.
const char* cppType(rules::Type type);

// A C++ string literal for any text: quotes, backslashes, newlines, "*/", trigraph-like
// sequences and non-ASCII bytes are escaped, so nothing can break out of generated code.
std::string cppStringLiteral(const std::string& text);
// The same text as a plain "..." literal (a const char array).
std::string cppCharLiteral(const std::string& text);

} // namespace ptowb::codegen
