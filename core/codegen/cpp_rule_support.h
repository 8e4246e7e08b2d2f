#pragma once

// The one C++ rule runtime, which the generated C++ carries with it: the ONNX schema library and
// the libtorch op library inline, the CANN sources in a header of the op's own beside op_host
// (op_host and op_proto include it). CANN's custom-op build compiles host code as C++11 with
// -D_GLIBCXX_USE_CXX11_ABI=0 and links no ptowb library, so the support is source the package
// carries: C++11 only, in an unnamed namespace (two ops linked into one library never share a
// definition), in namespace ptowb_Rt — a name no op identifier can take (identifiers are lower
// case, op types have no underscore).
#include <string>

namespace ptowb::codegen {

// The standard headers the support needs, as #include lines.
std::string cppRuleSupportIncludes();

// Rule values that may be unknown and the rule operations over them (cpp_rule_emitter.h emits
// calls to these). GE marks an unknown dim -1 and an unknown rank {-2} (graph/types.h
// UNKNOWN_DIM, UNKNOWN_DIM_NUM): such values propagate through arithmetic and shape functions,
// and a comparison that needs one is unknown, so a constraint on it is deferred, not failed.
std::string cppRuleSupport();

} // namespace ptowb::codegen
