// op_proto: REG_OP and the graph's InferShape over ge::Operator (graph/operator_reg.h).
#include "codegen/cann_parts.h"
#include "codegen/cann_rule_emitter.h"
#include "codegen/cann_support.h"

namespace ptowb::codegen::cann {

std::string protoHeader(const Context& c)
{
    std::string guard;
    for (char ch : "PTOWB_" + c.facts.packageName + "_PROTO_H")
        guard += char(std::toupper(static_cast<unsigned char>(ch)));
    std::string body = "REG_OP(" + c.spec.opType + ")\n";
    for (std::size_t k = 0; k < c.spec.inputs.size(); ++k)
        body += "    .INPUT(" + c.spec.inputs[k].name + ", TensorType({" +
                geTypes(inputDTypes(c.combos, k), "") + "}))\n";
    for (std::size_t k = 0; k < c.spec.outputs.size(); ++k)
        body += "    .OUTPUT(" + c.spec.outputs[k].name + ", TensorType({" +
                geTypes(outputDTypes(c.combos, k), "") + "}))\n";
    for (const auto& p : c.spec.params) {
        const std::string type(paramTypeInfo(p.type).cann);
        body += p.defaultValue ? "    .ATTR(" + p.name + ", " + type + ", " +
                                     attrDefault(*p.defaultValue, p.type) + ")\n"
                               : "    .REQUIRED_ATTR(" + p.name + ", " + type + ")\n";
    }
    body += "    .ATTR(ptowb_record, String, " + cppCharLiteral(c.facts.record) + ")\n";
    body += "    .OP_END_FACTORY_REG(" + c.spec.opType + ")\n";

    std::string out = headerComment("//", c.facts);
    out += "// Graph-compiler prototype of " + c.facts.qualifiedName +
           ": every dtype the description allows.\n";
    out += "#ifndef " + guard + "\n#define " + guard + "\n\n#include \"graph/operator_reg.h\"\n\n";
    if (body.find("std::numeric_limits") != std::string::npos) out += "#include <limits>\n\n";
    out += "namespace ge {\n\n" + body + "\n} // namespace ge\n\n#endif\n";
    return out;
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

    std::string out = headerComment("//", c.facts);
    out += "// The graph's InferShape of " + c.facts.qualifiedName +
           ", emitted from the description's rules: standalone C++11.\n";
    out += "#include \"" + spec.name + "_proto.h\"\n\n" + cannSupportIncludes() + "\n" +
           cannRuleSupport() + "\nnamespace ge {\n\nnamespace {\n\n";
    out += "const char* const kOpType = " + cppCharLiteral(spec.opType) + ";\n\n";
    out += "inline graphStatus failure(const std::string& message)\n{\n    "
           "ptowb_Rt::report(kOpType, message);\n    return GRAPH_FAILED;\n}\n\n";
    out += dtypeSwitches("");
    out +=
        "\ninline ptowb_Rt::Tensor tensorOf(const TensorDesc& desc)\n{\n    ptowb_Rt::Tensor t;\n";
    out += "    t.shape = ptowb_Rt::fromGeDims(desc.GetShape().GetDims());\n    t.dtype = "
           "fromGe(desc.GetDataType());\n    return t;\n}\n\n} // namespace\n\n";

    out += "IMPLEMT_COMMON_INFERFUNC(" + spec.opType + "InferShape)\n{\n    try {\n";
    for (int k : inputs)
        out += "        const ptowb_Rt::Tensor " + names.inputs[std::size_t(k)] +
               " = tensorOf(op.GetInputDescByName(" +
               cppCharLiteral(spec.inputs[std::size_t(k)].name) + "));\n";
    for (int k : params) {
        const ParamSpec& p = spec.params[std::size_t(k)];
        const OperatorAttr attr = operatorAttr(p.type);
        const std::string raw = names.params[std::size_t(k)] + "_attr";
        out += "        " + std::string(attr.type) + " " + raw + " = " + std::string(attr.type) +
               "();\n";
        const std::string get = "op.GetAttr(" + cppCharLiteral(p.name) + ", " + raw + ")";
        if (p.defaultValue) {
            out += "        const auto " + names.params[std::size_t(k)] + " =\n            " + get +
                   " == GRAPH_SUCCESS ? " + substitute(attr.toRule, raw) + " : " +
                   ruleDefault(*p.defaultValue, p.type) + ";\n";
        } else {
            out += "        if (" + get + " != GRAPH_SUCCESS) return failure(" +
                   cppCharLiteral("the required attribute '" + p.name + "' is not set") + ");\n";
            out += "        const auto " + names.params[std::size_t(k)] + " = " +
                   substitute(attr.toRule, raw) + ";\n";
        }
    }
    out += checks(spec, what, "        ");
    for (const auto& o : spec.outputs) {
        const std::string name = cppCharLiteral(o.name);
        out += "        {\n            TensorDesc desc = op.GetOutputDescByName(" + name + ");\n";
        out += "            desc.SetShape(Shape(ptowb_Rt::toGeDims(" +
               emitCannRule(o.shape->root(), names) + ")));\n";
        out += "            const ptowb_Rt::DT dtype = " + emitCannRule(o.dtype->root(), names) +
               ";\n";
        out += "            if (!dtype.known) return failure(" +
               cppCharLiteral("the dtype of output '" + o.name +
                              "' needs an input dtype the graph does not give") +
               ");\n";
        out += "            desc.SetDataType(toGe(dtype.value));\n";
        out += "            if (op.UpdateOutputDesc(" + name +
               ", desc) != GRAPH_SUCCESS) return failure(" +
               cppCharLiteral("cannot update output '" + o.name + "'") + ");\n";
        out += "        }\n";
    }
    out += "    } catch (const ptowb_Rt::RuleError& e) {\n        return failure(e.what());\n    "
           "}\n    return GRAPH_SUCCESS;\n}\n\n";
    out += "COMMON_INFER_FUNC_REG(" + spec.opType + ", " + spec.opType +
           "InferShape);\n\n} // namespace ge\n";
    return out;
}

} // namespace ptowb::codegen::cann
