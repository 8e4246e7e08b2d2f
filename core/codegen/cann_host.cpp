// op_host: the Ascend C OpDef with runtime InferShape/InferDataType over gert contexts
// (register/op_def_registry.h, exe_graph/runtime/infer_shape_context.h).
#include "codegen/cann_parts.h"
#include "codegen/cann_rule_emitter.h"
#include "codegen/cann_support.h"

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

std::string inferShape(const Context& c)
{
    const OpSpec& spec = c.spec;
    const CppNames names = cppNames(spec);
    const Evaluated what{true, false, true};
    std::set<int> inputs, params;
    usedSlots(spec, what, inputs, params);
    std::string f = "ge::graphStatus " + spec.opType +
                    "InferShape(gert::InferShapeContext* context)\n{\n    try {\n";
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
        f += "        if (writeShape(" + emitCannRule(spec.outputs[k].shape->root(), names) +
             ", context->GetOutputShape(" + std::to_string(k) + "), " +
             cppCharLiteral(spec.outputs[k].name) +
             ") != ge::GRAPH_SUCCESS)\n            return ge::GRAPH_FAILED;\n";
    f += "    } catch (const ptowb_Rt::RuleError& e) {\n        return failure(e.what());\n    }\n "
         "   return ge::GRAPH_SUCCESS;\n}\n\n";
    return f;
}

// InferDataType has no shapes: every input has an unknown rank, so constraints on shapes wait
// for InferShape while those on dtypes (a.dtype == b.dtype) are checked here.
std::string inferDataType(const Context& c)
{
    const OpSpec& spec = c.spec;
    const CppNames names = cppNames(spec);
    const Evaluated what{false, true, false};
    std::set<int> inputs, params;
    usedSlots(spec, what, inputs, params);
    std::string f = "ge::graphStatus " + spec.opType +
                    "InferDataType(gert::InferDataTypeContext* context)\n{\n    try {\n";
    for (int k : inputs)
        f += "        const ptowb_Rt::Tensor " + names.inputs[std::size_t(k)] +
             " = tensorOf(nullptr, context->GetInputDataType(" + std::to_string(k) + "));\n";
    f += readAttrs(spec, params) + checks(spec, what, "        ");
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const std::string v = "dtype" + std::to_string(k);
        f += "        const ptowb_Rt::DT " + v + " = " +
             emitCannRule(spec.outputs[k].dtype->root(), names) + ";\n";
        f += "        if (!" + v + ".known) return failure(" +
             cppCharLiteral("the dtype of output '" + spec.outputs[k].name +
                            "' needs an input dtype the graph does not give") +
             ");\n";
        f += "        context->SetOutputDataType(" + std::to_string(k) + ", toGe(" + v +
             ".value));\n";
    }
    f += "    } catch (const ptowb_Rt::RuleError& e) {\n        return failure(e.what());\n    }\n "
         "   return ge::GRAPH_SUCCESS;\n}\n\n";
    return f;
}

constexpr const char* kHelpers = R"CPP(inline ge::graphStatus failure(const std::string& message)
{
    ptowb_Rt::report(kOpType, message);
    return ge::GRAPH_FAILED;
}

// A missing shape (InferDataType has none) is an unknown rank.
inline ptowb_Rt::Tensor tensorOf(const gert::Shape* shape, ge::DataType dtype)
{
    ptowb_Rt::Tensor t;
    t.dtype = fromGe(dtype);
    std::vector<std::int64_t> dims(1, ge::UNKNOWN_DIM_NUM);
    if (shape != nullptr) {
        dims.clear();
        for (std::size_t k = 0; k < shape->GetDimNum(); ++k) dims.push_back(shape->GetDim(k));
    }
    t.shape = ptowb_Rt::fromGeDims(dims);
    return t;
}

inline ge::graphStatus writeShape(const ptowb_Rt::Shape& shape, gert::Shape* out, const char* name)
{
    if (out == nullptr) return failure(std::string("the graph gives no shape for output '") + name + "'");
    const std::vector<std::int64_t> dims = ptowb_Rt::toGeDims(shape);
    if (dims.size() > gert::Shape::kMaxDimNum) return failure(std::string("output '") + name + "' has more dims than a gert::Shape holds");
    out->SetDimNum(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) out->SetDim(d, dims[d]);
    return ge::GRAPH_SUCCESS;
}

)CPP";

} // namespace

std::string hostSource(const Context& c)
{
    const OpSpec& spec = c.spec;
    std::string out = headerComment("//", c.facts);
    out += "// Ascend C host definition of " + c.facts.qualifiedName +
           ": OpDef, InferShape and InferDataType from the rules; standalone C++11.\n";
    out += "#include \"register/op_def_registry.h\"\n\n" + cannSupportIncludes() + "\n" +
           cannRuleSupport() + "\nnamespace ge {\n\nnamespace {\n\n";
    out += "const char* const kOpType = " + cppCharLiteral(spec.opType) + ";\n\n" +
           dtypeSwitches("ge::") + "\n" + kHelpers;
    out += inferShape(c) + inferDataType(c) +
           "} // namespace\n\n} // namespace ge\n\nnamespace ops {\n\n";
    out += "class " + spec.opType + " : public OpDef\n{\npublic:\n    explicit " + spec.opType +
           "(const char* name) : OpDef(name)\n    {\n";
    std::string formats;
    for (std::size_t k = 0; k < c.combos.size(); ++k)
        formats += (k ? ", " : "") + std::string("ge::FORMAT_ND");
    auto param = [&](const char* kind, const std::string& name, bool output, std::size_t k) {
        std::vector<DType> column;
        for (const auto& combo : c.combos)
            column.push_back(output ? combo.outputs[k] : combo.inputs[k]);
        out += std::string("        this->") + kind + "(" + cppCharLiteral(name) +
               ").ParamType(REQUIRED).DataType({" + geTypes(column, "ge::") + "}).Format({" +
               formats + "});\n";
    };
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        param("Input", spec.inputs[k].name, false, k);
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        param("Output", spec.outputs[k].name, true, k);
    for (const auto& p : spec.params)
        out += "        this->Attr(" + cppCharLiteral(p.name) + ").AttrType(" +
               (p.defaultValue ? "OPTIONAL" : "REQUIRED") + ")." +
               std::string(paramTypeInfo(p.type).cann) + "(" +
               (p.defaultValue ? attrDefault(*p.defaultValue, p.type) : "") + ");\n";
    out += "        this->Attr(\"ptowb_record\").AttrType(OPTIONAL).String(" +
           cppCharLiteral(c.facts.record) + ");\n";
    out += "        this->SetInferShape(ge::" + spec.opType +
           "InferShape).SetInferDataType(ge::" + spec.opType + "InferDataType);\n";
    for (const auto& soc : spec.targets.soc)
        out += "        this->AICore().AddConfig(" + cppCharLiteral(lower(soc)) + ");\n";
    out += "    }\n};\n\nOP_ADD(" + spec.opType + ");\n\n} // namespace ops\n";
    return out;
}

} // namespace ptowb::codegen::cann
