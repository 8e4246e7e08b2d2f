// op_proto: REG_OP and the graph's InferShape over ge::Operator (graph/operator_reg.h), from
// templates/cann_op_proto.{h,cc}.in.
#include "codegen/cann_parts.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/templates.h"
#include "text/template_text.h"

namespace ptowb::codegen::cann {

std::string protoHeader(const Context& c)
{
    const std::string guard = includeGuard(c.facts, "PROTO_H");
    std::string registration;
    for (std::size_t k = 0; k < c.spec.inputs.size(); ++k)
        registration += "    .INPUT(" + c.spec.inputs[k].name + ", TensorType({" +
                        geTypes(inputDTypes(c.combos, k), "") + "}))\n";
    for (std::size_t k = 0; k < c.spec.outputs.size(); ++k)
        registration += "    .OUTPUT(" + c.spec.outputs[k].name + ", TensorType({" +
                        geTypes(outputDTypes(c.combos, k), "") + "}))\n";
    for (const auto& p : c.spec.params) {
        const std::string type(paramTypeInfo(p.type).cann);
        registration += p.defaultValue ? "    .ATTR(" + p.name + ", " + type + ", " +
                                             attrDefault(*p.defaultValue, p.type) + ")\n"
                                       : "    .REQUIRED_ATTR(" + p.name + ", " + type + ")\n";
    }
    const std::string record = cppCharLiteral(c.facts.record);
    const bool limits = (registration + record).find("std::numeric_limits") != std::string::npos;
    return fillTemplate(cannOpProtoHeaderTemplate(),
                        {
                            {"HEADER", headerComment("//", c.facts)},
                            {"QUALIFIED", c.facts.qualifiedName},
                            {"GUARD", guard},
                            {"LIMITS_INCLUDE", limits ? "#include <limits>\n\n" : ""},
                            {"OP_TYPE", c.spec.opType},
                            {"REGISTRATION", registration},
                            {"RECORD_LIT", record},
                        });
}

namespace {

// How ge::Operator::GetAttr reads a parameter, and how that becomes the rule's value.
struct OperatorAttr
{
    const char* type;
    const char* toRule; // $ is the variable
};

OperatorAttr operatorAttr(ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return {"bool", "ptowb_Rt::boolOf($)"};
    case ParamType::Int:
        return {"std::int64_t", "ptowb_Rt::intOf($)"};
    case ParamType::Float:
        return {"float", "ptowb_Rt::floatOf(double($))"};
    // AscendString rather than std::string: its layout does not depend on the libstdc++ ABI.
    case ParamType::Str:
        return {"ge::AscendString", "ptowb_Rt::strOf($.GetString() != nullptr ? "
                                    "std::string($.GetString(), $.GetLength()) : std::string())"};
    case ParamType::IntList:
        return {"std::vector<std::int64_t>", "ptowb_Rt::shapeValues($)"};
    case ParamType::FloatList:
        return {"std::vector<float>",
                "ptowb_Rt::floatValues(std::vector<double>($.begin(), $.end()))"};
    }
    return {"std::int64_t", "ptowb_Rt::intOf($)"};
}

std::string substitute(std::string pattern, const std::string& variable)
{
    std::string out;
    for (char ch : pattern)
        out += ch == '$' ? variable : std::string(1, ch);
    return out;
}

} // namespace

std::string protoSource(const Context& c)
{
    const OpSpec& spec = c.spec;
    const CppNames names = cppNames(spec);
    const Evaluated what{true, true, true};
    std::set<int> inputs, params;
    usedSlots(spec, what, inputs, params);

    std::string body;
    for (int k : inputs)
        body += "        const ptowb_Rt::Tensor " + names.inputs[std::size_t(k)] +
                " = tensorOf(op.GetInputDescByName(" +
                cppCharLiteral(spec.inputs[std::size_t(k)].name) + "));\n";
    for (int k : params) {
        const ParamSpec& p = spec.params[std::size_t(k)];
        const OperatorAttr attr = operatorAttr(p.type);
        const std::string raw = names.params[std::size_t(k)] + "_attr";
        body += "        " + std::string(attr.type) + " " + raw + " = " + std::string(attr.type) +
                "();\n";
        const std::string get = "op.GetAttr(" + cppCharLiteral(p.name) + ", " + raw + ")";
        if (p.defaultValue) {
            body += "        const auto " + names.params[std::size_t(k)] + " =\n            " +
                    get + " == GRAPH_SUCCESS ? " + substitute(attr.toRule, raw) + " : " +
                    ruleDefault(*p.defaultValue, p.type) + ";\n";
        } else {
            body += "        if (" + get + " != GRAPH_SUCCESS) return failure(" +
                    cppCharLiteral("the required attribute '" + p.name + "' is not set") + ");\n";
            body += "        const auto " + names.params[std::size_t(k)] + " = " +
                    substitute(attr.toRule, raw) + ";\n";
        }
    }
    body += checks(spec, what, "        ");
    for (const auto& o : spec.outputs) {
        const std::string name = cppCharLiteral(o.name);
        body += "        {\n            TensorDesc desc = op.GetOutputDescByName(" + name + ");\n";
        body += "            desc.SetShape(Shape(ptowb_Rt::toGeDims(" +
                emitCppRule(o.shape->root(), names) + ")));\n";
        body +=
            "            const ptowb_Rt::DT dtype = " + emitCppRule(o.dtype->root(), names) + ";\n";
        body += "            if (!dtype.known) return failure(" +
                cppCharLiteral("the dtype of output '" + o.name +
                               "' needs an input dtype the graph does not give") +
                ");\n";
        body += "            desc.SetDataType(toGe(dtype.value));\n";
        body += "            if (op.UpdateOutputDesc(" + name +
                ", desc) != GRAPH_SUCCESS) return failure(" +
                cppCharLiteral("cannot update output '" + o.name + "'") + ");\n";
        body += "        }\n";
    }
    return fillTemplate(cannOpProtoSourceTemplate(),
                        {
                            {"HEADER", headerComment("//", c.facts)},
                            {"QUALIFIED", c.facts.qualifiedName},
                            {"NAME", spec.name},
                            {"RULE_SUPPORT_FILE", ruleSupportFile(spec)},
                            {"OP_TYPE", spec.opType},
                            {"OP_TYPE_LIT", cppCharLiteral(spec.opType)},
                            {"DTYPE_SWITCHES", dtypeSwitches("")},
                            {"INFER_SHAPE", body},
                        });
}

} // namespace ptowb::codegen::cann
