// op_host: the Ascend C OpDef with runtime InferShape/InferDataType over gert contexts
// (register/op_def_registry.h, exe_graph/runtime/infer_shape_context.h), from
// templates/cann_op_host.cpp.in.
#include "codegen/cann_parts.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/templates.h"
#include "text/template_text.h"

namespace ptowb::codegen::cann {

namespace {

// gert::RuntimeAttrs numbers attributes in the order the OpDef declares them.
std::string readAttrs(const OpSpec& spec, const std::set<int>& params)
{
    const CppNames names = cppNames(spec);
    std::string out;
    if (params.empty()) return out;
    out += "        const gert::RuntimeAttrs* attrs = context->GetAttrs();\n";
    out += "        if (attrs == nullptr) return failure(\"the graph gives no attributes\");\n";
    for (int k : params) {
        const ParamSpec& p = spec.params[std::size_t(k)];
        const std::string i = std::to_string(k);
        const std::string raw = names.params[std::size_t(k)] + "_attr";
        std::string read, value;
        switch (p.type) {
        case ParamType::Bool:
            read = "GetBool", value = "ptowb_Rt::boolOf(*" + raw + ")";
            break;
        case ParamType::Int:
            read = "GetInt", value = "ptowb_Rt::intOf(*" + raw + ")";
            break;
        case ParamType::Float:
            read = "GetFloat", value = "ptowb_Rt::floatOf(double(*" + raw + "))";
            break;
        case ParamType::Str:
            read = "GetStr", value = "ptowb_Rt::strOf(std::string(" + raw + "))";
            break;
        case ParamType::IntList:
            read = "GetListInt", value = "ptowb_Rt::shapeValues(std::vector<std::int64_t>(" + raw +
                                         "->GetData(), " + raw + "->GetData() + " + raw +
                                         "->GetSize()))";
            break;
        case ParamType::FloatList:
            read = "GetListFloat", value = "ptowb_Rt::floatValues(std::vector<double>(" + raw +
                                           "->GetData(), " + raw + "->GetData() + " + raw +
                                           "->GetSize()))";
            break;
        }
        out += "        const auto* " + raw + " = attrs->" + read + "(" + i + ");\n";
        if (p.defaultValue) {
            out += "        const auto " + names.params[std::size_t(k)] + " = " + raw +
                   " != nullptr ? " + value + " : " + ruleDefault(*p.defaultValue, p.type) + ";\n";
        } else {
            out += "        if (" + raw + " == nullptr) return failure(" +
                   cppCharLiteral("the required attribute '" + p.name + "' is not set") + ");\n";
            out += "        const auto " + names.params[std::size_t(k)] + " = " + value + ";\n";
        }
    }
    return out;
}

// The body of InferShape (inside its try block).
std::string inferShape(const Context& c)
{
    const OpSpec& spec = c.spec;
    const CppNames names = cppNames(spec);
    const Evaluated what{true, false, true};
    std::set<int> inputs, params;
    usedSlots(spec, what, inputs, params);
    std::string f;
    for (int k : inputs) {
        const std::string i = std::to_string(k);
        f += "        if (context->GetInputShape(" + i + ") == nullptr) return failure(" +
             cppCharLiteral("the graph gives no shape for input '" +
                            spec.inputs[std::size_t(k)].name + "'") +
             ");\n";
        f += "        const ptowb_Rt::Tensor " + names.inputs[std::size_t(k)] +
             " = tensorOf(context->GetInputShape(" + i + "), context->GetInputDesc(" + i +
             ") != nullptr ? context->GetInputDesc(" + i +
             ")->GetDataType() : ge::DT_UNDEFINED);\n";
    }
    f += readAttrs(spec, params) + checks(spec, what, "        ");
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        f += "        if (writeShape(" + emitCppRule(spec.outputs[k].shape->root(), names) +
             ", context->GetOutputShape(" + std::to_string(k) + "), " +
             cppCharLiteral(spec.outputs[k].name) +
             ") != ge::GRAPH_SUCCESS)\n            return ge::GRAPH_FAILED;\n";
    return f;
}

// The body of InferDataType. It has no shapes: every input has an unknown rank, so constraints
// on shapes wait for InferShape while those on dtypes (a.dtype == b.dtype) are checked here.
std::string inferDataType(const Context& c)
{
    const OpSpec& spec = c.spec;
    const CppNames names = cppNames(spec);
    const Evaluated what{false, true, false};
    std::set<int> inputs, params;
    usedSlots(spec, what, inputs, params);
    std::string f;
    for (int k : inputs)
        f += "        const ptowb_Rt::Tensor " + names.inputs[std::size_t(k)] +
             " = tensorOf(nullptr, context->GetInputDataType(" + std::to_string(k) + "));\n";
    f += readAttrs(spec, params) + checks(spec, what, "        ");
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const std::string v = "dtype" + std::to_string(k);
        f += "        const ptowb_Rt::DT " + v + " = " +
             emitCppRule(spec.outputs[k].dtype->root(), names) + ";\n";
        f += "        if (!" + v + ".known) return failure(" +
             cppCharLiteral("the dtype of output '" + spec.outputs[k].name +
                            "' needs an input dtype the graph does not give") +
             ");\n";
        f += "        context->SetOutputDataType(" + std::to_string(k) + ", toGe(" + v +
             ".value));\n";
    }
    return f;
}

} // namespace

std::string hostSource(const Context& c)
{
    const OpSpec& spec = c.spec;
    std::string formats;
    for (std::size_t k = 0; k < c.combos.size(); ++k)
        formats += (k ? ", " : "") + std::string("ge::FORMAT_ND");
    std::string opDef;
    auto param = [&](const char* kind, const std::string& name, bool output, std::size_t k) {
        std::vector<DType> column;
        for (const auto& combo : c.combos)
            column.push_back(output ? combo.outputs[k] : combo.inputs[k]);
        opDef += std::string("        this->") + kind + "(" + cppCharLiteral(name) +
                 ").ParamType(REQUIRED).DataType({" + geTypes(column, "ge::") + "}).Format({" +
                 formats + "});\n";
    };
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        param("Input", spec.inputs[k].name, false, k);
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        param("Output", spec.outputs[k].name, true, k);
    for (const auto& p : spec.params)
        opDef += "        this->Attr(" + cppCharLiteral(p.name) + ").AttrType(" +
                 (p.defaultValue ? "OPTIONAL" : "REQUIRED") + ")." +
                 std::string(paramTypeInfo(p.type).cann) + "(" +
                 (p.defaultValue ? attrDefault(*p.defaultValue, p.type) : "") + ");\n";
    std::string socConfigs;
    for (const auto& soc : spec.targets.soc)
        socConfigs += "        this->AICore().AddConfig(" + cppCharLiteral(lower(soc)) + ");\n";
    return fillTemplate(cannOpHostTemplate(), {
                                                  {"HEADER", headerComment("//", c.facts)},
                                                  {"QUALIFIED", c.facts.qualifiedName},
                                                  {"RULE_SUPPORT_FILE", ruleSupportFile(spec)},
                                                  {"OP_TYPE", spec.opType},
                                                  {"OP_TYPE_LIT", cppCharLiteral(spec.opType)},
                                                  {"DTYPE_SWITCHES", dtypeSwitches("ge::")},
                                                  {"INFER_SHAPE", inferShape(c)},
                                                  {"INFER_DATA_TYPE", inferDataType(c)},
                                                  {"OP_DEF", opDef},
                                                  {"RECORD_LIT", cppCharLiteral(c.facts.record)},
                                                  {"SOC_CONFIGS", socConfigs},
                                              });
}

} // namespace ptowb::codegen::cann
