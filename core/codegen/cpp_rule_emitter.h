#pragma once

#include "rules/rule_ast.h"

#include <set>
#include <string>
#include <vector>

namespace ptowb::codegen {

// The one C++ rule emitter, for every C++ target (the CANN sources, the ONNX schema library and
// the libtorch op library): a checked rule becomes one C++11 expression over the ptowb_Rt
// support each generated file carries (cpp_rule_support.h), so the generated code evaluates the
// rule the workbench evaluates. Every value may be unknown — GE passes -1 for a dim and {-2} for a
// rank it does not know yet, an ONNX graph may lack a dim, a rank or a dtype — and the rule
// propagates unknowns instead of comparing them; a target decides what an unknown result means
// (CANN passes it on to GE, ONNX leaves that part of the output type unknown, libtorch, whose
// sizes are always known, fails).
// names.inputs are ptowb_Rt::Tensor variables, names.params ptowb_Rt values of the parameter's
// rule type (Int, Float, Bool, Str, Shape, Floats).
struct CppNames
{
    std::vector<std::string> inputs; // C++ expression for each input slot
    std::vector<std::string> params; // ... and each parameter slot
};

std::string emitCppRule(const rules::Node& root, const CppNames& names);

// The ptowb_Rt type of a rule type ("ptowb_Rt::Shape" for a shape).
const char* cppRuleType(rules::Type type);

// Which inputs and parameters (slots) a rule reads, so generated functions only read those.
void collectSlots(const rules::Node& root, std::set<int>& inputs, std::set<int>& params);

// A C++ string literal for any text: quotes, backslashes, newlines, "*/", trigraph-like
// sequences and non-ASCII bytes are escaped, so nothing can break out of generated code.
std::string cppStringLiteral(const std::string& text);
// The same text as a plain "..." literal (a const char array).
std::string cppCharLiteral(const std::string& text);

} // namespace ptowb::codegen
