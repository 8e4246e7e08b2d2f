#pragma once

#include "rules/rule_value.h"
#include "spec/op_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace ptowb {

// `--input x=4x64:float16`: a name, a shape (4x64, 4,64, [4,64], or empty for a scalar) and an
// optional dtype (the input's first allowed dtype when omitted).
struct TensorArgument
{
    std::string name;
    std::vector<std::int64_t> shape;
    std::optional<DType> dtype;
};
std::variant<TensorArgument, std::string> parseTensorArgument(std::string_view text);

// `--param channels=32`: the value is a JSON literal; a string may omit its quotes.
struct ParamArgument
{
    std::string name;
    std::string literal;
};
std::variant<ParamArgument, std::string> parseParamArgument(std::string_view text);

// Converts a parameter literal to the parameter's declared type.
std::variant<rules::Value, std::string> paramValueFromLiteral(const std::string& literal,
                                                              ParamType type);

} // namespace ptowb
