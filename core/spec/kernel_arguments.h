#pragma once

#include "spec/op_spec.h"

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <variant>

namespace ptowb {

// One case's kernel arguments ("kernel": {"arguments"} of op.json), evaluated and written as the
// kernel worker takes them: {"NUM_ROWS": 4, "config": {"class": "NormConfig", "fields":
// {"eps": 1e-06, "dtype": {"dtype": "bfloat16"}}}}. A dtype is {"dtype": name}, so the worker
// can hand the kernel a pypto dtype. Returns the evaluation error, naming the argument.
std::variant<nlohmann::json, std::string>
kernelArgumentsJson(const OpSpec& spec, std::span<const rules::TensorInfo> inputs,
                    std::span<const rules::Value> params);

nlohmann::json kernelArgumentValueJson(const rules::Value& value);

// Why a JSON value cannot be a kernel argument's literal value (empty when it can): its items
// are numbers, strings, booleans, arrays of them or dicts ({"dict": [[key, value], ...]}, keys
// numbers, strings or booleans), at most kMaxKernelArgumentLiteralItems in all.
std::string kernelArgumentLiteralProblem(const nlohmann::json& value);
inline constexpr std::size_t kMaxKernelArgumentLiteralItems = 65536;

// Why a "class" of a kernel argument or a made_with value names no class (empty when it does):
// a name, or a dotted path to one such as configs.NormConfig.
std::string kernelArgumentClassProblem(const std::string& name);

} // namespace ptowb
