#pragma once

// The pieces of the CANN description (cann/), one generator per file, and what they share.
#include "codegen/glue_facts.h"
#include "spec/dtype_combinations.h"

#include <set>
#include <string>
#include <vector>

namespace ptowb::codegen::cann {

struct Context
{
    const OpSpec& spec;
    const GlueFacts& facts;
    const std::vector<DTypeCombination>& combos;
};

std::string protoHeader(const Context& c);
std::string protoSource(const Context& c);
std::string hostSource(const Context& c);
std::string onnxPlugin(const Context& c);
std::string cmakeLists(const Context& c);
// The rule support op_host and op_proto share, one header beside op_host (they include it as
// "<file>" and "../op_host/<file>", so no include path is needed).
std::string ruleSupportFile(const OpSpec& spec);
std::string ruleSupportHeader(const Context& c);

std::string lower(std::string text);
// An include guard: PTOWB_<PACKAGE>_<suffix>, upper case.
std::string includeGuard(const GlueFacts& facts, const std::string& suffix);
// "DT_FLOAT16, DT_FLOAT" with each name prefixed.
std::string geTypes(const std::vector<DType>& dtypes, const char* prefix);
// A parameter default as REG_OP's ATTR and OpDef's Attr() take it: CANN attributes hold
// float32 and int64, so a float default is a float literal, clamped to float's range.
std::string attrDefault(const rules::Value& v, ParamType type);
// The same default as a ptowb_Rt value of the parameter's rule type.
std::string ruleDefault(const rules::Value& v, ParamType type);
// A C++ value of the parameter's type (bool, std::int64_t, double, std::string, a vector of
// std::int64_t or double) as the ptowb_Rt value of its rule type.
std::string ruleValue(ParamType type, const std::string& value);
// A string as a std::string expression that keeps every byte, NUL included.
std::string stdString(const std::string& text);

// The ge::DataType <-> ptowb_Rt::DType switches, with `ge` the namespace prefix to use.
std::string dtypeSwitches(const char* ge);

// What one generated infer function evaluates: the constraints, and for each output its
// shape and/or dtype rule, plus rank checks of the inputs the description gives a rank.
struct Evaluated
{
    bool shapes = false;
    bool dtypes = false;
    bool ranks = false;
};
// The inputs and parameters those rules read, so only they are materialized.
void usedSlots(const OpSpec& spec, const Evaluated& what, std::set<int>& inputs,
               std::set<int>& params);
// The rank checks and constraints, failing with the description's message when known values
// violate one (`return failure(message);`, a function the generated file defines); `indent`
// prefixes every line.
std::string checks(const OpSpec& spec, const Evaluated& what, const std::string& indent);

} // namespace ptowb::codegen::cann
