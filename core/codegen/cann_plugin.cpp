// framework/onnx_plugin: the ONNX parser plugin ATC loads (register/register.h), from
// templates/cann_onnx_plugin.cc.in.
//
// What Ascend's parser gives a plugin (Ascend/parser, parser/onnx/onnx_parser.cc ParseOpParam,
// parser/common/convert/message2operator.cc and pb2json.cc): op_src has ONE string attribute,
// "attribute", holding {"attribute": [AttributeProto as JSON, ...]} with proto3 presence — a
// zero or empty value is left out — where "type" is the AttributeType number, "f" is a string
// printed with %g, "s" is C-escaped bytes (protobuf CEscape), "ints"/"floats" are arrays.
// CANN ships no JSON library to plugins (the official sample carries its own copy of one), so
// the template carries a bounded reader of its own.
#include "codegen/cann_parts.h"
#include "codegen/templates.h"
#include "text/template_text.h"

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
    std::string readAttributes;
    for (const auto& p : spec.params) {
        const PluginAttr attr = pluginAttr(p.type);
        const std::string name = cppCharLiteral(p.name);
        readAttributes +=
            "    {\n        " + std::string(attr.type) + " value = " + initialValue(p) + ";\n";
        readAttributes += "        const ptowb_Rt::Found found = attrs." +
                          std::string(attr.getter) + "(" + name + ", value, error);\n";
        readAttributes +=
            "        if (found == ptowb_Rt::Invalid) return ptowb_Rt::failed(kOpType, error);\n";
        if (!p.defaultValue)
            readAttributes +=
                "        if (found == ptowb_Rt::Absent) return ptowb_Rt::failed(kOpType, " +
                cppCharLiteral("the ONNX node lacks the required attribute '" + p.name + "'") +
                ");\n";
        readAttributes +=
            "        op_dest.SetAttr(" + name + ", " + setValue(p.type, "value") + ");\n    }\n";
    }
    return fillTemplate(cannOnnxPluginTemplate(),
                        {
                            {"HEADER", headerComment("//", c.facts)},
                            {"QUALIFIED", c.facts.qualifiedName},
                            {"OP_TYPE", spec.opType},
                            {"OP_TYPE_LIT", cppCharLiteral(spec.opType)},
                            {"ORIGIN_LIT", cppCharLiteral(spec.ns + "::1::" + spec.opType)},
                            {"READ_ATTRIBUTES", readAttributes},
                        });
}

} // namespace ptowb::codegen::cann
