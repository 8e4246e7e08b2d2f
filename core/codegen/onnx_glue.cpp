#include "codegen/cann_parts.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/cpp_rule_support.h"
#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "spec/dtype_combinations.h"
#include "text/template_text.h"

namespace ptowb::codegen {

namespace {

std::string typeList(const std::vector<DType>& dtypes)
{
    std::string out;
    for (DType d : dtypes)
        out += (out.empty() ? "" : ", ") + std::string("\"") + onnxTensorType(d) + "\"";
    return "{" + out + "}";
}

// The attribute's default as ONNX stores it (bool as int, floats as float).
std::string attributeDefault(const rules::Value& v, ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return "std::int64_t(" + std::string(v.asBool() ? "1" : "0") + ")";
    case ParamType::Float:
        return "float(" + cppLiteral(v) + ")";
    case ParamType::FloatList: {
        std::string out = "std::vector<float>{";
        for (std::size_t k = 0; k < v.floats.size(); ++k)
            out += (k ? ", " : "") + std::string("float(") +
                   cppLiteral(rules::Value::ofFloat(v.floats[k])) + ")";
        return out + "}";
    }
    default:
        return cppLiteral(v);
    }
}

// The parameter as the rule value of its type, from its attribute or its default.
std::string readAttribute(const ParamSpec& p, const std::string& variable)
{
    const std::string a = "a_" + variable;
    std::string out = "    const onnx::AttributeProto* " + a + " = attribute(ctx, " +
                      cppCharLiteral(p.name) + ", " + (p.defaultValue ? "false" : "true") + ");\n";
    // A required attribute is never absent here: attribute() failed the inference.
    const std::string fallback =
        p.defaultValue
            ? cann::ruleDefault(*p.defaultValue, p.type)
            : cann::ruleValue(p.type, std::string(paramTypeInfo(p.type).cppValue) + "()");
    std::string value;
    switch (p.type) {
    case ParamType::Bool:
        value = a + "->i() != 0";
        break;
    case ParamType::Int:
        value = a + "->i()";
        break;
    case ParamType::Float:
        value = "double(" + a + "->f())";
        break;
    case ParamType::Str:
        value = a + "->s()";
        break;
    case ParamType::IntList:
        value = "std::vector<std::int64_t>(" + a + "->ints().begin(), " + a + "->ints().end())";
        break;
    case ParamType::FloatList:
        value = "std::vector<double>(" + a + "->floats().begin(), " + a + "->floats().end())";
        break;
    }
    out += "    const " + std::string(cppRuleType(ruleTypeOf(p.type))) + " " + variable + " = " +
           a + " ? " + cann::ruleValue(p.type, value) + " : " + fallback + ";\n";
    return out;
}

} // namespace

std::vector<GeneratedFile> generateOnnxSchema(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const CppNames names = cppNames(spec);
    const auto combinations = dtypeCombinations(spec);

    std::string fromOnnx, toOnnx;
    for (const auto& info : allDTypes()) {
        fromOnnx += "    case " + std::to_string(info.onnxElementType) +
                    ": return ptowb_Rt::dtypeOf(ptowb_Rt::DType::" + std::string(info.cppEnum) +
                    "); // " + std::string(info.onnxName) + "\n";
        toOnnx += "    case ptowb_Rt::DType::" + std::string(info.cppEnum) + ": return " +
                  std::to_string(info.onnxElementType) + ";\n";
    }

    std::string readInputs, unknownDimChecks, standInInputs, infer;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const std::string type = "ctx.getInputType(" + std::to_string(k) + ")";
        readInputs +=
            "    const ptowb_Rt::Tensor " + names.inputs[k] + " = ruleTensor(" + type + ");\n";
        unknownDimChecks += " || ptowb_dims::StandIns::hasUnknownDim(" + type + ")";
        standInInputs += "            const ptowb_Rt::Tensor " + names.inputs[k] +
                         " = ruleTensor(" + type + ", &standIns, run);\n";
    }
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        readInputs += readAttribute(spec.params[k], names.params[k]);
    for (const auto& c : spec.constraints) {
        infer += "    tryRule(" + cppCharLiteral("constraint " + c.check) + ", [&] {\n";
        infer += "        if (ptowb_Rt::violated(" + emitCppRule(c.rule->root(), names) + "))\n";
        infer += "            fail_shape_inference(kQualifiedName, \": \", " +
                 cppStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold"
                                                    : c.message) +
                 ");\n";
        infer += "    });\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const OutputSpec& out = spec.outputs[k];
        const std::string type = "ctx.getOutputType(" + std::to_string(k) + ")";
        infer += "    tryRule(" + cppCharLiteral("dtype of output '" + out.name + "'") +
                 ", [&] { setDType(" + type + ", " + emitCppRule(out.dtype->root(), names) +
                 "); });\n";
        // The stand-in run's inputs shadow the graph's.
        infer += "    if (unknownDims)\n";
        infer += "        setStandInShape(" + type +
                 ", [&](ptowb_dims::StandIns& standIns, int run) {\n" + standInInputs +
                 "            return " + emitCppRule(out.shape->root(), names) + ";\n        });\n";
        infer += "    else\n";
        infer += "        tryRule(" + cppCharLiteral("shape of output '" + out.name + "'") +
                 ", [&] { setShape(" + type + ", " + emitCppRule(out.shape->root(), names) +
                 "); });\n";
    }

    std::string schema;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const std::string constraint = "T_" + spec.inputs[k].name;
        schema += "    schema.Input(" + std::to_string(k) + ", " +
                  cppStringLiteral(spec.inputs[k].name) + ", " +
                  cppStringLiteral(spec.inputs[k].doc) + ", \"" + constraint + "\");\n";
        schema += "    schema.TypeConstraint(\"" + constraint + "\", " +
                  typeList(inputDTypes(combinations, k)) + ", " +
                  cppStringLiteral("dtypes of input " + spec.inputs[k].name) + ");\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const std::string constraint = "T_out_" + spec.outputs[k].name;
        schema += "    schema.Output(" + std::to_string(k) + ", " +
                  cppStringLiteral(spec.outputs[k].name) + ", " +
                  cppStringLiteral(spec.outputs[k].doc) + ", \"" + constraint + "\");\n";
        schema += "    schema.TypeConstraint(\"" + constraint + "\", " +
                  typeList(outputDTypes(combinations, k)) + ", " +
                  cppStringLiteral("dtypes of output " + spec.outputs[k].name) + ");\n";
    }
    for (const auto& p : spec.params) {
        schema += "    schema.Attr(" + cppStringLiteral(p.name) + ", " + cppStringLiteral(p.doc) +
                  ", onnx::AttributeProto::" + std::string(paramTypeInfo(p.type).onnxAttrType);
        schema += p.defaultValue ? ", " + attributeDefault(*p.defaultValue, p.type) + ");\n"
                                 : ", true);\n";
    }

    const std::string base = "onnx/" + facts.packageName;
    return {
        {"onnx/CMakeLists.txt",
         fillTemplate(onnxCMakeListsTemplate(), {{"HEADER", headerComment("#", facts)},
                                                 {"QUALIFIED", facts.qualifiedName},
                                                 {"PACKAGE", facts.packageName}})},
        {base + "_schema.h",
         fillTemplate(onnxSchemaHeaderTemplate(), {{"HEADER", headerComment("//", facts)},
                                                   {"QUALIFIED", facts.qualifiedName},
                                                   {"DOMAIN", spec.ns},
                                                   {"OP_TYPE", spec.opType},
                                                   {"PACKAGE", facts.packageName}})},
        {base + "_schema.cc",
         fillTemplate(onnxSchemaSourceTemplate(),
                      {
                          {"HEADER", headerComment("//", facts)},
                          {"QUALIFIED", facts.qualifiedName},
                          {"PACKAGE", facts.packageName},
                          {"QUALIFIED_LIT", cppCharLiteral(facts.qualifiedName)},
                          {"DOMAIN_LIT", cppCharLiteral(spec.ns)},
                          {"OP_TYPE_LIT", cppCharLiteral(spec.opType)},
                          {"DOC_LIT", cppStringLiteral(spec.doc)},
                          {"SUPPORT_INCLUDES", cppRuleSupportIncludes()},
                          {"RULE_SUPPORT", cppRuleSupport()},
                          {"DTYPE_FROM_ONNX", fromOnnx},
                          {"DTYPE_TO_ONNX", toOnnx},
                          {"READ_INPUTS", readInputs},
                          {"UNKNOWN_DIM_CHECKS", unknownDimChecks},
                          {"INFER", infer},
                          {"SCHEMA", schema},
                      })},
    };
}

} // namespace ptowb::codegen
