#pragma once

#include "codegen/cpp_rule_emitter.h"
#include "rules/rule_ast.h"

#include <set>
#include <string>

namespace ptowb::codegen {

// Translates a checked rule into one C++11 expression over the inline support of
// cann_support.h (namespace ptowb_Rt), for CANN's InferShape and InferDataType. Unlike the
// C++ emitter for torch and ONNX, every value may be unknown: GE passes -1 for a dim and
// {-2} for a rank it does not know yet, and the rule must propagate them, not compare them.
// names.inputs are ptowb_Rt::Tensor variables, names.params ptowb_Rt values of the
// parameter's rule type (Int, Float, Bool, Str, Shape, Floats).
std::string emitCannRule(const rules::Node& root, const CppNames& names);

// The ptowb_Rt type of a rule type ("ptowb_Rt::Shape" for a shape).
const char* cannRuleType(rules::Type type);

// Which inputs and parameters (slots) a rule reads, so generated functions only read those.
void collectSlots(const rules::Node& root, std::set<int>& inputs, std::set<int>& params);

} // namespace ptowb::codegen
