#include "spec/command_line_values.h"

#include "spec/inference.h"

#include <cerrno>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace ptowb {

std::variant<TensorArgument, std::string> parseTensorArgument(std::string_view text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return std::string("expected NAME=SHAPE[:DTYPE], e.g. x=4x64:float16");
    TensorArgument arg;
    arg.name = std::string(text.substr(0, eq));
    std::string_view rest = text.substr(eq + 1);
    const std::size_t colon = rest.find(':');
    if (colon != std::string_view::npos) {
        const std::string dtype(rest.substr(colon + 1));
        arg.dtype = dtypeFromName(dtype);
        if (!arg.dtype) return "unknown dtype \"" + dtype + "\" for input '" + arg.name + "'";
        rest = rest.substr(0, colon);
    }
    if (!rest.empty() && rest.front() == '[' && rest.back() == ']')
        rest = rest.substr(1, rest.size() - 2);
    std::size_t pos = 0;
    while (pos < rest.size()) {
        std::size_t end = rest.find_first_of("x,", pos);
        if (end == std::string_view::npos) end = rest.size();
        const std::string dim(rest.substr(pos, end - pos));
        char* stop = nullptr;
        errno = 0;
        const long long value = std::strtoll(dim.c_str(), &stop, 10);
        if (dim.empty() || *stop != '\0' || errno == ERANGE || value < 0)
            return "bad dim \"" + dim + "\" in the shape of input '" + arg.name +
                   "': dims are non-negative integers";
        arg.shape.push_back(value);
        pos = end + 1;
        if (end < rest.size() && pos == rest.size())
            return "the shape of input '" + arg.name + "' ends with a separator";
    }
    return arg;
}

std::variant<ParamArgument, std::string> parseParamArgument(std::string_view text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return std::string("expected NAME=VALUE, e.g. channels=32");
    return ParamArgument{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::variant<rules::Value, std::string> paramValueFromLiteral(const std::string& literal,
                                                              ParamType type)
{
    nlohmann::json value = nlohmann::json::parse(literal, nullptr, false);
    if (value.is_discarded()) {
        if (type != ParamType::Str)
            return "\"" + literal + "\" is not a valid " + std::string(paramTypeInfo(type).name) +
                   " value";
        value = literal;
    }
    if (type == ParamType::Str && !value.is_string()) value = literal;
    return paramValueFromJson(value, type);
}

} // namespace ptowb
