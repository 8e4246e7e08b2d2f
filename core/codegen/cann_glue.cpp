#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "spec/dtype_combinations.h"

#include <nlohmann/json.hpp>

#include <cctype>

namespace ptowb::codegen {

namespace {

std::string lower(std::string text)
{
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string geTypes(const std::vector<DType>& dtypes, const char* prefix)
{
    std::string out;
    for (DType d : dtypes) out += (out.empty() ? "" : ", ") + std::string(prefix) + std::string(dtypeInfo(d).cann);
    return out;
}

// An attribute default as REG_OP / OpDef write it.
std::string cannDefault(const rules::Value& v, ParamType type)
{
    switch (type) {
    case ParamType::Bool: return v.asBool() ? "true" : "false";
    case ParamType::Float: return cppLiteral(v);
    case ParamType::Str: return cppCharLiteral(v.s);
    case ParamType::IntList:
    case ParamType::FloatList: {
        std::string out = "{";
        for (std::size_t k = 0; k < v.listSize(); ++k)
            out += (k ? ", " : "") + (type == ParamType::IntList ? std::to_string(v.ints[k]) : cppLiteral(rules::Value::ofFloat(v.floats[k])));
        return out + "}";
    }
    default: return std::to_string(v.i);
    }
}

// The C++ type ge::Operator::GetAttr fills for this parameter, and how it becomes the rules' value.
struct GeAttr
{
    std::string type;
    std::string toValue; // with $ for the variable
};

GeAttr geAttr(ParamType type)
{
    switch (type) {
    case ParamType::Bool: return {"bool", "$"};
    case ParamType::Int: return {"int64_t", "$"};
    case ParamType::Float: return {"float", "double($)"};
    case ParamType::Str: return {"std::string", "$"};
    case ParamType::IntList: return {"std::vector<int64_t>", "$"};
    case ParamType::FloatList: return {"std::vector<float>", "std::vector<double>($.begin(), $.end())"};
    }
    return {"int64_t", "$"};
}

std::string substitute(std::string pattern, const std::string& variable)
{
    for (std::size_t at; (at = pattern.find('$')) != std::string::npos;) pattern.replace(at, 1, variable);
    return pattern;
}

std::string protoHeader(const OpSpec& spec, const GlueFacts& facts, const std::vector<DTypeCombination>& combos)
{
    const std::string guard = "PTOWB_" + lower(facts.packageName) + "_PROTO_H";
    std::string upperGuard;
    for (char c : guard) upperGuard += char(std::toupper(static_cast<unsigned char>(c)));
    std::string out = headerComment("//", facts);
    out += "// Graph-compiler prototype of " + facts.qualifiedName + ": every dtype the description allows.\n";
    out += "#ifndef " + upperGuard + "\n#define " + upperGuard + "\n\n#include \"graph/operator_reg.h\"\n\nnamespace ge {\n\n";
    out += "REG_OP(" + spec.opType + ")\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        out += "    .INPUT(" + spec.inputs[k].name + ", TensorType({" + geTypes(inputDTypes(combos, k), "") + "}))\n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        out += "    .OUTPUT(" + spec.outputs[k].name + ", TensorType({" + geTypes(outputDTypes(combos, k), "") + "}))\n";
    for (const auto& p : spec.params) {
        const std::string type(paramTypeInfo(p.type).cann);
        out += p.defaultValue ? "    .ATTR(" + p.name + ", " + type + ", " + cannDefault(*p.defaultValue, p.type) + ")\n"
                              : "    .REQUIRED_ATTR(" + p.name + ", " + type + ")\n";
    }
    out += "    .ATTR(ptowb_record, String, " + cppCharLiteral(facts.record) + ")\n";
    out += "    .OP_END_FACTORY_REG(" + spec.opType + ")\n\n} // namespace ge\n\n#endif\n";
    return out;
}

std::string dtypeSwitches(const char* geNamespace)
{
    std::string from = "ptowb::DType fromGe(" + std::string(geNamespace) + "DataType type)\n{\n    switch (type) {\n";
    std::string to = std::string(geNamespace) + "DataType toGe(ptowb::DType dtype)\n{\n    switch (dtype) {\n";
    for (const auto& info : allDTypes()) {
        from += "    case " + std::string(geNamespace) + std::string(info.cann) + ": return ptowb::DType::" + std::string(info.cppEnum) + ";\n";
        to += "    case ptowb::DType::" + std::string(info.cppEnum) + ": return " + std::string(geNamespace) + std::string(info.cann) + ";\n";
    }
    from += "    default: throw ptowb::emitted::RuleError(\"a dtype this op does not support\");\n    }\n}\n\n";
    to += "    }\n    return " + std::string(geNamespace) + "DT_UNDEFINED;\n}\n";
    return from + to;
}

std::string constraintChecks(const OpSpec& spec, const CppNames& names, const std::string& indent, const std::string& onFailure)
{
    std::string out;
    for (const auto& c : spec.constraints)
        out += indent + "if (!(" + emitCpp(c.rule->root(), names) + ")) return " + onFailure + ";\n";
    return out;
}

std::string protoSource(const OpSpec& spec, const GlueFacts& facts)
{
    const CppNames names = cppNames(spec);
    std::string out = headerComment("//", facts);
    out += "// InferShape of " + facts.qualifiedName + " emitted from the description's rules (C++ only, no Python).\n";
    out += "#include \"" + spec.name + "_proto.h\"\n\n#include \"rules/emitted_support.h\"\n\n#include <string>\n#include <vector>\n\nnamespace ge {\n\nnamespace {\n\n";
    out += "struct ProtoTensor\n{\n    TensorDesc desc;\n};\n\n";
    out += "std::vector<int64_t> ptShape(const ProtoTensor& t) { return t.desc.GetShape().GetDims(); }\n";
    out += "int64_t ptRank(const ProtoTensor& t) { return int64_t(t.desc.GetShape().GetDimNum()); }\n";
    out += "int64_t ptNumel(const ProtoTensor& t) { return ptowb::emitted::prod(ptShape(t)); }\n";
    out += dtypeSwitches("");
    out += "ptowb::DType ptDType(const ProtoTensor& t) { return fromGe(t.desc.GetDataType()); }\n\n} // namespace\n\n";
    out += "IMPLEMT_COMMON_INFERFUNC(" + spec.opType + "InferShape)\n{\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        out += "    const ProtoTensor " + names.inputs[k] + "{op.GetInputDescByName(" + cppCharLiteral(spec.inputs[k].name) + ")};\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const GeAttr attr = geAttr(p.type);
        const std::string raw = names.params[k] + "_attr";
        out += "    " + attr.type + " " + raw + (p.defaultValue ? " = " + attr.type + "(" + cannDefault(*p.defaultValue, p.type) + ")" : "") + ";\n";
        out += p.defaultValue ? "    op.GetAttr(" + cppCharLiteral(p.name) + ", " + raw + "); // absent: the default stays\n"
                              : "    if (op.GetAttr(" + cppCharLiteral(p.name) + ", " + raw + ") != GRAPH_SUCCESS) return GRAPH_FAILED;\n";
        out += "    const auto " + names.params[k] + " = " + substitute(attr.toValue, raw) + ";\n";
    }
    out += "    try {\n" + constraintChecks(spec, names, "        ", "GRAPH_FAILED");
    for (const auto& o : spec.outputs) {
        out += "        {\n            TensorDesc desc = op.GetOutputDescByName(" + cppCharLiteral(o.name) + ");\n";
        out += "            desc.SetShape(Shape(" + emitCpp(o.shape->root(), names) + "));\n";
        out += "            desc.SetDataType(toGe(" + emitCpp(o.dtype->root(), names) + "));\n";
        out += "            op.UpdateOutputDesc(" + cppCharLiteral(o.name) + ", desc);\n        }\n";
    }
    out += "    } catch (const ptowb::emitted::RuleError&) {\n        return GRAPH_FAILED;\n    }\n    return GRAPH_SUCCESS;\n}\n\n";
    out += "COMMON_INFER_FUNC_REG(" + spec.opType + ", " + spec.opType + "InferShape);\n\n} // namespace ge\n";
    return out;
}

std::string hostSource(const OpSpec& spec, const GlueFacts& facts, const std::vector<DTypeCombination>& combos)
{
    const CppNames names = cppNames(spec);
    std::string out = headerComment("//", facts);
    out += "// Ascend C host definition of " + facts.qualifiedName + ": OpDef, InferShape and InferDataType from the rules.\n";
    out += "#include \"register/op_def_registry.h\"\n#include \"rules/emitted_support.h\"\n\n#include <string>\n#include <vector>\n\n";
    out += "namespace ge {\n\nnamespace {\n\n";
    out += "struct HostTensor\n{\n    const gert::Shape* shape;\n    ge::DataType dtype;\n};\n\n";
    out += "std::vector<int64_t> ptShape(const HostTensor& t)\n{\n    std::vector<int64_t> dims;\n";
    out += "    for (size_t k = 0; k < t.shape->GetDimNum(); ++k) dims.push_back(t.shape->GetDim(k));\n    return dims;\n}\n";
    out += "int64_t ptRank(const HostTensor& t) { return int64_t(t.shape->GetDimNum()); }\n";
    out += "int64_t ptNumel(const HostTensor& t) { return ptowb::emitted::prod(ptShape(t)); }\n";
    out += dtypeSwitches("ge::");
    out += "ptowb::DType ptDType(const HostTensor& t) { return fromGe(t.dtype); }\n\n";

    // Attributes by declaration index, as gert::RuntimeAttrs numbers them.
    std::string readAttrs;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const std::string i = std::to_string(k);
        const std::string& v = names.params[k];
        const std::string fallback = p.defaultValue ? cppLiteral(*p.defaultValue) : std::string(paramTypeInfo(p.type).cppValue) + "{}";
        std::string read;
        switch (p.type) {
        case ParamType::Bool: read = "attrs->GetAttrPointer<bool>(" + i + ")"; break;
        case ParamType::Int: read = "attrs->GetAttrPointer<int64_t>(" + i + ")"; break;
        case ParamType::Float: read = "attrs->GetAttrPointer<float>(" + i + ")"; break;
        case ParamType::Str: read = "attrs->GetAttrPointer<char>(" + i + ")"; break;
        case ParamType::IntList: read = "attrs->GetListInt(" + i + ")"; break;
        case ParamType::FloatList: read = "attrs->GetListFloat(" + i + ")"; break;
        }
        readAttrs += "    const auto* " + v + "_attr = " + read + ";\n";
        std::string value;
        switch (p.type) {
        case ParamType::Str: value = "std::string(" + v + "_attr)"; break;
        case ParamType::IntList: value = "std::vector<int64_t>(" + v + "_attr->GetData(), " + v + "_attr->GetData() + " + v + "_attr->GetSize())"; break;
        case ParamType::FloatList: value = "std::vector<double>(" + v + "_attr->GetData(), " + v + "_attr->GetData() + " + v + "_attr->GetSize())"; break;
        case ParamType::Float: value = "double(*" + v + "_attr)"; break;
        default: value = "*" + v + "_attr"; break;
        }
        if (!p.defaultValue) readAttrs += "    if (" + v + "_attr == nullptr) return ge::GRAPH_FAILED; // required\n";
        readAttrs += "    const " + std::string(paramTypeInfo(p.type).cppValue) + " " + v + " = " + v + "_attr ? " + value + " : " + fallback + ";\n";
    }

    auto inferFunction = [&](const std::string& name, const std::string& context, bool shapes) {
        std::string f = "ge::graphStatus " + name + "(" + context + "* context)\n{\n";
        f += "    const gert::RuntimeAttrs* attrs = context->GetAttrs();\n";
        f += "    if (attrs == nullptr) return ge::GRAPH_FAILED;\n";
        for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
            const std::string i = std::to_string(k);
            f += shapes ? "    const HostTensor " + names.inputs[k] + "{context->GetInputShape(" + i + "), context->GetInputDesc(" + i +
                              ") ? context->GetInputDesc(" + i + ")->GetDataType() : ge::DT_UNDEFINED};\n"
                        : "    static const gert::Shape kNoShape;\n    const HostTensor " + names.inputs[k] + "{&kNoShape, context->GetInputDataType(" + i + ")};\n";
            if (shapes) f += "    if (" + names.inputs[k] + ".shape == nullptr) return ge::GRAPH_FAILED;\n";
        }
        f += readAttrs;
        f += "    try {\n";
        if (shapes) f += constraintChecks(spec, names, "        ", "ge::GRAPH_FAILED");
        for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
            const std::string i = std::to_string(k);
            if (shapes) {
                f += "        {\n            const std::vector<int64_t> dims = " + emitCpp(spec.outputs[k].shape->root(), names) + ";\n";
                f += "            gert::Shape* out = context->GetOutputShape(" + i + ");\n";
                f += "            if (out == nullptr) return ge::GRAPH_FAILED;\n";
                f += "            out->SetDimNum(dims.size());\n";
                f += "            for (size_t d = 0; d < dims.size(); ++d) out->SetDim(d, dims[d]);\n        }\n";
            } else {
                f += "        context->SetOutputDataType(" + i + ", toGe(" + emitCpp(spec.outputs[k].dtype->root(), names) + "));\n";
            }
        }
        f += "    } catch (const ptowb::emitted::RuleError&) {\n        return ge::GRAPH_FAILED;\n    }\n";
        f += "    return ge::GRAPH_SUCCESS;\n}\n\n";
        return f;
    };
    out += inferFunction("InferShape", "gert::InferShapeContext", true);
    out += inferFunction("InferDataType", "gert::InferDataTypeContext", false);
    out += "} // namespace\n\n} // namespace ge\n\nnamespace ops {\n\n";
    out += "class " + spec.opType + " : public OpDef\n{\npublic:\n    explicit " + spec.opType + "(const char* name) : OpDef(name)\n    {\n";
    auto formats = [&] {
        std::string f;
        for (std::size_t k = 0; k < combos.size(); ++k) f += (k ? ", " : "") + std::string("ge::FORMAT_ND");
        return f;
    };
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        std::vector<DType> column;
        for (const auto& c : combos) column.push_back(c.inputs[k]);
        out += "        this->Input(" + cppCharLiteral(spec.inputs[k].name) + ").ParamType(REQUIRED).DataType({" + geTypes(column, "ge::") +
               "}).Format({" + formats() + "});\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        std::vector<DType> column;
        for (const auto& c : combos) column.push_back(c.outputs[k]);
        out += "        this->Output(" + cppCharLiteral(spec.outputs[k].name) + ").ParamType(REQUIRED).DataType({" + geTypes(column, "ge::") +
               "}).Format({" + formats() + "});\n";
    }
    for (const auto& p : spec.params) {
        const std::string type(paramTypeInfo(p.type).cann);
        out += "        this->Attr(" + cppCharLiteral(p.name) + ").AttrType(" + (p.defaultValue ? "OPTIONAL" : "REQUIRED") + ")." + type + "(" +
               (p.defaultValue ? cannDefault(*p.defaultValue, p.type) : "") + ");\n";
    }
    out += "        this->Attr(\"ptowb_record\").AttrType(OPTIONAL).String(" + cppCharLiteral(facts.record) + ");\n";
    out += "        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);\n";
    for (const auto& soc : spec.targets.soc) out += "        this->AICore().AddConfig(" + cppCharLiteral(lower(soc)) + ");\n";
    out += "    }\n};\n\nOP_ADD(" + spec.opType + ");\n\n} // namespace ops\n";
    return out;
}

std::string onnxPlugin(const OpSpec& spec, const GlueFacts& facts)
{
    std::string out = headerComment("//", facts);
    out += "// ONNX parser plugin of " + facts.qualifiedName + ": maps the custom node and copies every attribute.\n";
    out += "#include \"register/register.h\"\n\n#include <string>\n#include <vector>\n\nnamespace domi {\n\n";
    out += "Status ParseParams" + spec.opType + "(const ge::Operator& op_src, ge::Operator& op_dest)\n{\n";
    for (const auto& p : spec.params) {
        const GeAttr attr = geAttr(p.type);
        // ONNX carries a bool as an int attribute.
        const std::string onnxType = p.type == ParamType::Bool ? "int64_t" : attr.type;
        const std::string v = "attr_" + p.name;
        out += "    " + onnxType + " " + v + (p.defaultValue ? " = " + onnxType + "(" + cannDefault(*p.defaultValue, p.type) + ")" : "") + ";\n";
        out += p.defaultValue ? "    op_src.GetAttr(" + cppCharLiteral(p.name) + ", " + v + "); // absent: the default stays\n"
                              : "    if (op_src.GetAttr(" + cppCharLiteral(p.name) + ", " + v + ") != ge::GRAPH_SUCCESS) return FAILED;\n";
        out += "    op_dest.SetAttr(" + cppCharLiteral(p.name) + ", " + (p.type == ParamType::Bool ? v + " != 0" : v) + ");\n";
    }
    out += "    std::string record;\n";
    out += "    if (op_src.GetAttr(\"ptowb_record\", record) == ge::GRAPH_SUCCESS) op_dest.SetAttr(\"ptowb_record\", record);\n";
    out += "    return SUCCESS;\n}\n\n";
    out += "REGISTER_CUSTOM_OP(" + cppCharLiteral(spec.opType) + ")\n    .FrameworkType(ONNX)\n    .OriginOpType(" +
           cppCharLiteral(spec.ns + "::1::" + spec.opType) + ")\n    .ParseParamsByOperatorFn(ParseParams" + spec.opType +
           ")\n    .ImplyType(ImplyType::TVM);\n\n} // namespace domi\n";
    return out;
}

std::string iniValue(const rules::Value& v)
{
    if (v.type == rules::Type::Shape || v.type == rules::Type::FloatList) {
        std::string out;
        for (std::size_t k = 0; k < v.listSize(); ++k)
            out += (k ? "," : "") + (v.type == rules::Type::Shape ? std::to_string(v.ints[k]) : rules::formatFloat(v.floats[k]));
        return out;
    }
    if (v.type == rules::Type::Bool) return v.asBool() ? "true" : "false";
    if (v.type == rules::Type::Str) {
        std::string out; // one line, whatever the text holds
        for (char c : v.s) out += (c == '\n' || c == '\r') ? ' ' : c;
        return out;
    }
    return v.toString();
}

std::string opInfoIni(const OpSpec& spec, const GlueFacts& facts, const std::vector<DTypeCombination>& combos)
{
    std::string out = headerComment("#", facts);
    out += "[" + spec.opType + "]\n";
    auto column = [&](std::size_t k, bool output) {
        std::string dtypes, formats;
        for (const auto& c : combos) {
            dtypes += (dtypes.empty() ? "" : ",") + std::string(dtypeInfo(output ? c.outputs[k] : c.inputs[k]).cannIni);
            formats += (formats.empty() ? "" : ",") + std::string("ND");
        }
        return std::make_pair(dtypes, formats);
    };
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const auto [dtypes, formats] = column(k, false);
        const std::string p = "input" + std::to_string(k);
        out += p + ".name=" + spec.inputs[k].name + "\n" + p + ".dtype=" + dtypes + "\n" + p + ".paramType=required\n" + p + ".format=" + formats + "\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const auto [dtypes, formats] = column(k, true);
        const std::string p = "output" + std::to_string(k);
        out += p + ".name=" + spec.outputs[k].name + "\n" + p + ".dtype=" + dtypes + "\n" + p + ".paramType=required\n" + p + ".format=" + formats + "\n";
    }
    std::string list;
    for (const auto& p : spec.params) list += (list.empty() ? "" : ",") + p.name;
    if (!list.empty()) out += "attr.list=" + list + "\n";
    for (const auto& p : spec.params) {
        const std::string a = "attr_" + p.name;
        out += a + ".type=" + std::string(paramTypeInfo(p.type).cannIni) + "\n" + a + ".value=all\n" + a + ".paramType=" +
               (p.defaultValue ? "optional" : "required") + "\n";
        if (p.defaultValue) out += a + ".defaultValue=" + iniValue(*p.defaultValue) + "\n";
    }
    out += "opFile.value=" + spec.name + "\nopInterface.value=" + spec.name + "\n";
    return out;
}

std::string msOpGenJson(const OpSpec& spec, const std::vector<DTypeCombination>& combos)
{
    using Json = nlohmann::ordered_json;
    auto descs = [&](bool outputs) {
        Json list = Json::array();
        const std::size_t count = outputs ? spec.outputs.size() : spec.inputs.size();
        for (std::size_t k = 0; k < count; ++k) {
            Json types = Json::array(), formats = Json::array();
            for (const auto& c : combos) {
                types.push_back(std::string(dtypeInfo(outputs ? c.outputs[k] : c.inputs[k]).cannIni));
                formats.push_back("ND");
            }
            list.push_back({{"name", outputs ? spec.outputs[k].name : spec.inputs[k].name}, {"param_type", "required"}, {"format", formats}, {"type", types}});
        }
        return list;
    };
    Json attrs = Json::array();
    for (const auto& p : spec.params) {
        Json a{{"name", p.name}, {"param_type", p.defaultValue ? "optional" : "required"}, {"type", std::string(paramTypeInfo(p.type).cannIni)}};
        if (p.defaultValue) a["default_value"] = iniValue(*p.defaultValue);
        attrs.push_back(a);
    }
    const Json op = Json::array({{{"op", spec.opType}, {"language", "cpp"}, {"input_desc", descs(false)}, {"output_desc", descs(true)}, {"attr", attrs}}});
    return op.dump(4) + "\n";
}

} // namespace

std::vector<GeneratedFile> generateCannDescription(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const auto combos = dtypeCombinations(spec);
    return {
        {"cann/op_proto/" + spec.name + "_proto.h", protoHeader(spec, facts, combos)},
        {"cann/op_proto/" + spec.name + "_proto.cc", protoSource(spec, facts)},
        {"cann/op_host/" + spec.name + ".cpp", hostSource(spec, facts, combos)},
        {"cann/framework/onnx_plugin/" + spec.name + "_plugin.cc", onnxPlugin(spec, facts)},
        {"cann/op_info/" + spec.name + ".ini", opInfoIni(spec, facts, combos)},
        {"cann/" + spec.name + ".json", msOpGenJson(spec, combos)},
    };
}

} // namespace ptowb::codegen
