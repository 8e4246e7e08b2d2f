// framework/onnx_plugin: the ONNX parser plugin ATC loads (register/register.h).
#include "codegen/cann_parts.h"
#include "codegen/cann_support.h"

namespace ptowb::codegen::cann {

namespace {

struct PluginAttr
{
    const char* type;   // the C++ type op_dest.SetAttr takes
    const char* getter; // the ptowb_Rt::OnnxAttributes reader
};

PluginAttr pluginAttr(ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return {"bool", "getBool"}; // ONNX carries a bool as an INT attribute
    case ParamType::Int:
        return {"std::int64_t", "getInt"};
    case ParamType::Float:
        return {"float", "getFloat"};
    case ParamType::Str:
        return {"std::string", "getString"};
    case ParamType::IntList:
        return {"std::vector<std::int64_t>", "getInts"};
    case ParamType::FloatList:
        return {"std::vector<float>", "getFloats"};
    }
    return {"std::int64_t", "getInt"};
}

// The value op_dest receives; a string goes as AscendString, whose layout is ABI-independent.
std::string setValue(ParamType type, const std::string& v)
{
    return type == ParamType::Str ? "ge::AscendString(" + v + ".c_str(), " + v + ".size())" : v;
}

std::string initialValue(const ParamSpec& p)
{
    if (p.type == ParamType::Str)
        return p.defaultValue ? stdString(p.defaultValue->s) : "std::string()";
    if (!p.defaultValue) return std::string(pluginAttr(p.type).type) + "()";
    return attrDefault(*p.defaultValue, p.type);
}

} // namespace

std::string onnxPlugin(const Context& c)
{
    const OpSpec& spec = c.spec;
    std::string out = headerComment("//", c.facts);
    out += "// ONNX parser plugin of " + c.facts.qualifiedName +
           ": reads every attribute from the JSON the Ascend parser hands over, and the record; "
           "standalone C++11.\n";
    out += "#include \"register/register.h\"\n\n#include <cctype>\n#include <cstddef>\n#include "
           "<cstdint>\n#include <cstdio>\n#include <cstring>\n#include <limits>\n"
           "#include <locale>\n#include <sstream>\n#include <stdexcept>\n#include "
           "<string>\n#include <vector>\n";
    out += cannPluginSupport() +
           "\nnamespace domi {\n\nnamespace {\n\nconst char* const kOpType = " +
           cppCharLiteral(spec.opType) + ";\n\n} // namespace\n\n";
    out += "Status ParseParams" + spec.opType +
           "(const ge::Operator& op_src, ge::Operator& op_dest)\n{\n";
    out += "    ptowb_Rt::OnnxAttributes attrs;\n    std::string error;\n    if "
           "(!attrs.load(op_src, error)) return ptowb_Rt::failed(kOpType, error);\n";
    for (const auto& p : spec.params) {
        const PluginAttr attr = pluginAttr(p.type);
        const std::string name = cppCharLiteral(p.name);
        out += "    {\n        " + std::string(attr.type) + " value = " + initialValue(p) + ";\n";
        out += "        const ptowb_Rt::Found found = attrs." + std::string(attr.getter) + "(" +
               name + ", value, error);\n";
        out += "        if (found == ptowb_Rt::Invalid) return ptowb_Rt::failed(kOpType, error);\n";
        if (!p.defaultValue)
            out += "        if (found == ptowb_Rt::Absent) return ptowb_Rt::failed(kOpType, " +
                   cppCharLiteral("the ONNX node lacks the required attribute '" + p.name + "'") +
                   ");\n";
        out += "        op_dest.SetAttr(" + name + ", " + setValue(p.type, "value") + ");\n    }\n";
    }
    out += "    {\n        std::string record;\n";
    out +=
        "        const ptowb_Rt::Found found = attrs.getString(\"ptowb_record\", record, error);\n";
    out += "        if (found == ptowb_Rt::Invalid) return ptowb_Rt::failed(kOpType, error);\n";
    out += "        if (found == ptowb_Rt::Present) op_dest.SetAttr(\"ptowb_record\", "
           "ge::AscendString(record.c_str(), record.size()));\n    }\n";
    out += "    return SUCCESS;\n}\n\n";
    out += "REGISTER_CUSTOM_OP(" + cppCharLiteral(spec.opType) +
           ")\n    .FrameworkType(ONNX)\n    .OriginOpType(" +
           cppCharLiteral(spec.ns + "::1::" + spec.opType) +
           ")\n    .ParseParamsByOperatorFn(ParseParams" + spec.opType +
           ")\n    .ImplyType(ImplyType::TVM);\n\n} // namespace domi\n";
    return out;
}

} // namespace ptowb::codegen::cann
