#include "codegen/cann_parts.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/cpp_rule_support.h"
#include "codegen/glue.h"
#include "codegen/templates.h"
#include "text/template_text.h"

#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace ptowb::codegen::cann {

std::string lower(std::string text)
{
    for (char& c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string includeGuard(const GlueFacts& facts, const std::string& suffix)
{
    std::string guard;
    for (char ch : "PTOWB_" + facts.packageName + "_" + suffix)
        guard += char(std::toupper(static_cast<unsigned char>(ch)));
    return guard;
}

std::string ruleSupportFile(const OpSpec& spec)
{
    return spec.name + "_rule_support.h";
}

std::string ruleSupportHeader(const Context& c)
{
    return fillTemplate(cannRuleSupportTemplate(),
                        {
                            {"HEADER", headerComment("//", c.facts)},
                            {"QUALIFIED", c.facts.qualifiedName},
                            {"GUARD", includeGuard(c.facts, "RULE_SUPPORT_H")},
                            {"SUPPORT_INCLUDES", cppRuleSupportIncludes()},
                            {"RULE_SUPPORT", cppRuleSupport()},
                        });
}

std::string geTypes(const std::vector<DType>& dtypes, const char* prefix)
{
    std::string out;
    for (DType d : dtypes)
        out += (out.empty() ? "" : ", ") + std::string(prefix) + std::string(dtypeInfo(d).cann);
    return out;
}

namespace {

std::string intDefault(std::int64_t v)
{
    // No header is needed for the smallest int64 this way, and the literal is never out of range.
    return v == INT64_MIN ? "(-9223372036854775807LL - 1)" : std::to_string(v);
}

std::string floatDefault(double v)
{
    if (std::isnan(v)) return "std::numeric_limits<float>::quiet_NaN()";
    if (std::fabs(v) > FLT_MAX)
        return v > 0 ? "std::numeric_limits<float>::infinity()"
                     : "(-std::numeric_limits<float>::infinity())";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

std::string doubleValue(double v)
{
    if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
    if (std::isinf(v))
        return v > 0 ? "std::numeric_limits<double>::infinity()"
                     : "(-std::numeric_limits<double>::infinity())";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

} // namespace

std::string stdString(const std::string& text)
{
    return "std::string(" + cppCharLiteral(text) + ", " + std::to_string(text.size()) + ")";
}

std::string attrDefault(const rules::Value& v, ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return v.asBool() ? "true" : "false";
    case ParamType::Int:
        return intDefault(v.i);
    case ParamType::Float:
        return floatDefault(v.f);
    case ParamType::Str:
        return cppCharLiteral(v.s);
    case ParamType::IntList:
    case ParamType::FloatList: {
        std::string out = "{";
        for (std::size_t k = 0; k < v.listSize(); ++k)
            out += (k ? ", " : "") +
                   (type == ParamType::IntList ? intDefault(v.ints[k]) : floatDefault(v.floats[k]));
        return out + "}";
    }
    }
    return "{}";
}

std::string ruleValue(ParamType type, const std::string& name)
{
    switch (type) {
    case ParamType::Bool:
        return "ptowb_Rt::boolOf(" + name + ")";
    case ParamType::Int:
        return "ptowb_Rt::intOf(" + name + ")";
    case ParamType::Float:
        return "ptowb_Rt::floatOf(" + name + ")";
    case ParamType::Str:
        return "ptowb_Rt::strOf(" + name + ")";
    case ParamType::IntList:
        return "ptowb_Rt::shapeValues(" + name + ")";
    case ParamType::FloatList:
        return "ptowb_Rt::floatValues(" + name + ")";
    }
    return name;
}

std::string ruleDefault(const rules::Value& v, ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return std::string("ptowb_Rt::boolOf(") + (v.asBool() ? "true" : "false") + ")";
    case ParamType::Int:
        return "ptowb_Rt::intOf(std::int64_t(" + intDefault(v.i) + "))";
    case ParamType::Float:
        return "ptowb_Rt::floatOf(" + doubleValue(v.f) + ")";
    case ParamType::Str:
        return "ptowb_Rt::strOf(" + stdString(v.s) + ")";
    case ParamType::IntList:
    case ParamType::FloatList: {
        const bool ints = type == ParamType::IntList;
        std::string out = ints ? "ptowb_Rt::shapeList({" : "ptowb_Rt::floatList({";
        for (std::size_t k = 0; k < v.listSize(); ++k)
            out += (k ? ", " : "") +
                   (ints ? "ptowb_Rt::intOf(std::int64_t(" + intDefault(v.ints[k]) + "))"
                         : "ptowb_Rt::floatOf(" + doubleValue(v.floats[k]) + ")");
        return out + "})";
    }
    }
    return "{}";
}

std::string dtypeSwitches(const char* ge)
{
    // A dtype outside the description's table is unknown to the rules, never an error here:
    // REG_OP's TensorType already limits what the graph may pass.
    std::string from = "inline ptowb_Rt::DT fromGe(" + std::string(ge) +
                       "DataType type)\n{\n    switch (type) {\n";
    std::string to = "inline " + std::string(ge) +
                     "DataType toGe(ptowb_Rt::DType dtype)\n{\n    switch (dtype) {\n";
    for (const auto& info : allDTypes()) {
        from += "    case " + std::string(ge) + std::string(info.cann) +
                ": return ptowb_Rt::dtypeOf(ptowb_Rt::DType::" + std::string(info.cppEnum) + ");\n";
        to += "    case ptowb_Rt::DType::" + std::string(info.cppEnum) + ": return " +
              std::string(ge) + std::string(info.cann) + ";\n";
    }
    from += "    default: return ptowb_Rt::unknown<ptowb_Rt::DType>();\n    }\n}\n\n";
    to += "    }\n    return " + std::string(ge) + "DT_UNDEFINED;\n}\n";
    return from + to;
}

void usedSlots(const OpSpec& spec, const Evaluated& what, std::set<int>& inputs,
               std::set<int>& params)
{
    for (const auto& c : spec.constraints)
        collectSlots(c.rule->root(), inputs, params);
    for (const auto& o : spec.outputs) {
        if (what.shapes) collectSlots(o.shape->root(), inputs, params);
        if (what.dtypes) collectSlots(o.dtype->root(), inputs, params);
    }
    if (what.ranks)
        for (std::size_t k = 0; k < spec.inputs.size(); ++k)
            if (spec.inputs[k].rank) inputs.insert(int(k));
}

std::string checks(const OpSpec& spec, const Evaluated& what, const std::string& indent)
{
    const CppNames names = cppNames(spec);
    std::string out;
    if (what.ranks)
        for (std::size_t k = 0; k < spec.inputs.size(); ++k)
            if (const auto& rank = spec.inputs[k].rank)
                out += indent + "if (ptowb_Rt::violated(ptowb_Rt::rankIs(" + names.inputs[k] +
                       ".shape, " + std::to_string(*rank) + ")))\n" + indent +
                       "    return failure(" +
                       cppCharLiteral("input '" + spec.inputs[k].name + "' must have rank " +
                                      std::to_string(*rank)) +
                       ");\n";
    for (const auto& c : spec.constraints) {
        const std::string message =
            c.message.empty() ? "the constraint " + c.check + " does not hold" : c.message;
        out += indent + "if (ptowb_Rt::violated(" + emitCppRule(c.rule->root(), names) + "))\n" +
               indent + "    return failure(" + cppCharLiteral(message) + ");\n";
    }
    return out;
}

namespace {

std::string iniValue(const rules::Value& v)
{
    if (v.type == rules::Type::Shape || v.type == rules::Type::FloatList) {
        std::string out;
        for (std::size_t k = 0; k < v.listSize(); ++k)
            out +=
                (k ? "," : "") + (v.type == rules::Type::Shape ? std::to_string(v.ints[k])
                                                               : rules::formatFloat(v.floats[k]));
        return out;
    }
    if (v.type == rules::Type::Bool) return v.asBool() ? "true" : "false";
    if (v.type == rules::Type::Str) {
        std::string out; // one line, whatever the text holds
        for (char c : v.s)
            out += (c == '\n' || c == '\r') ? ' ' : c;
        return out;
    }
    return v.toString();
}

std::string opInfoIni(const Context& c)
{
    auto column = [&](std::size_t k, bool output) {
        std::string dtypes, formats;
        for (const auto& combo : c.combos) {
            dtypes += (dtypes.empty() ? "" : ",") +
                      std::string(dtypeInfo(output ? combo.outputs[k] : combo.inputs[k]).cannIni);
            formats += (formats.empty() ? "" : ",") + std::string("ND");
        }
        return std::make_pair(dtypes, formats);
    };
    std::string tensors;
    auto describe = [&](const std::string& prefix, const std::string& name, std::size_t k,
                        bool output) {
        const auto [dtypes, formats] = column(k, output);
        tensors += prefix + ".name=" + name + "\n" + prefix + ".dtype=" + dtypes + "\n" + prefix +
                   ".paramType=required\n" + prefix + ".format=" + formats + "\n";
    };
    for (std::size_t k = 0; k < c.spec.inputs.size(); ++k)
        describe("input" + std::to_string(k), c.spec.inputs[k].name, k, false);
    for (std::size_t k = 0; k < c.spec.outputs.size(); ++k)
        describe("output" + std::to_string(k), c.spec.outputs[k].name, k, true);
    std::string list, attributes;
    for (const auto& p : c.spec.params)
        list += (list.empty() ? "" : ",") + p.name;
    if (!list.empty()) attributes += "attr.list=" + list + "\n";
    for (const auto& p : c.spec.params) {
        // msopgen's INI_ATTR_TYPE_MAP spelling: int float bool str listInt listFloat.
        const std::string a = "attr_" + p.name;
        attributes += a + ".type=" + std::string(paramTypeInfo(p.type).cannIni) + "\n" + a +
                      ".value=all\n" + a +
                      ".paramType=" + (p.defaultValue ? "optional" : "required") + "\n";
        if (p.defaultValue) attributes += a + ".defaultValue=" + iniValue(*p.defaultValue) + "\n";
    }
    return fillTemplate(cannOpInfoTemplate(), {
                                                  {"HEADER", headerComment("#", c.facts)},
                                                  {"OP_TYPE", c.spec.opType},
                                                  {"NAME", c.spec.name},
                                                  {"TENSORS", tensors},
                                                  {"ATTRIBUTES", attributes},
                                              });
}

// msopgen's IR_ATTR_TYPE_MAP keys (op_gen's config/transform.json): the JSON spelling differs
// from the .ini one, and msopgen drops an attribute whose type it does not know.
const char* msOpGenAttrType(ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return "bool";
    case ParamType::Int:
        return "int";
    case ParamType::Float:
        return "float";
    case ParamType::Str:
        return "string";
    case ParamType::IntList:
        return "list_int";
    case ParamType::FloatList:
        return "list_float";
    }
    return "int";
}

std::string msOpGenJson(const Context& c)
{
    using Json = nlohmann::ordered_json;
    auto descs = [&](bool outputs) {
        Json list = Json::array();
        const std::size_t count = outputs ? c.spec.outputs.size() : c.spec.inputs.size();
        for (std::size_t k = 0; k < count; ++k) {
            Json types = Json::array(), formats = Json::array();
            for (const auto& combo : c.combos) {
                types.push_back(
                    std::string(dtypeInfo(outputs ? combo.outputs[k] : combo.inputs[k]).cannIni));
                formats.push_back("ND");
            }
            list.push_back({{"name", outputs ? c.spec.outputs[k].name : c.spec.inputs[k].name},
                            {"param_type", "required"},
                            {"format", formats},
                            {"type", types}});
        }
        return list;
    };
    Json attrs = Json::array();
    for (const auto& p : c.spec.params) {
        Json a{{"name", p.name},
               {"param_type", p.defaultValue ? "optional" : "required"},
               {"type", msOpGenAttrType(p.type)}};
        if (p.defaultValue) a["default_value"] = iniValue(*p.defaultValue);
        attrs.push_back(a);
    }
    const Json op = Json::array({{{"op", c.spec.opType},
                                  {"language", "cpp"},
                                  {"input_desc", descs(false)},
                                  {"output_desc", descs(true)},
                                  {"attr", attrs}}});
    return op.dump(4) + "\n";
}

} // namespace

} // namespace ptowb::codegen::cann

namespace ptowb::codegen {

OpSpec graphCompilerSpec(const OpSpec& spec)
{
    OpSpec out = spec;
    for (std::size_t k : spec.mutatedInputs()) {
        OutputSpec ref;
        ref.name = spec.inputs[k].name;
        ref.shapeRule = ref.name + ".shape";
        ref.dtypeRule = ref.name + ".dtype";
        auto shape = rules::Rule::compile(ref.shapeRule, spec.ruleScope());
        auto dtype = rules::Rule::compile(ref.dtypeRule, spec.ruleScope());
        if (auto* rule = std::get_if<rules::Rule>(&shape)) ref.shape = std::move(*rule);
        if (auto* rule = std::get_if<rules::Rule>(&dtype)) ref.dtype = std::move(*rule);
        ref.doc = "the value of input '" + ref.name + "' after the op (a ref tensor)";
        out.outputs.push_back(std::move(ref));
    }
    return out;
}

std::vector<GeneratedFile> generateCannDescription(const GlueSource& source)
{
    const OpSpec spec = graphCompilerSpec(source.spec);
    const GlueFacts facts = glueFacts(source);
    const auto combos = dtypeCombinations(spec);
    const cann::Context c{spec, facts, combos};
    return {
        {"cann/CMakeLists.txt", cann::cmakeLists(c)},
        {"cann/op_proto/" + spec.name + "_proto.h", cann::protoHeader(c)},
        {"cann/op_proto/" + spec.name + "_proto.cc", cann::protoSource(c)},
        {"cann/op_host/" + spec.name + ".cpp", cann::hostSource(c)},
        {"cann/op_host/" + cann::ruleSupportFile(spec), cann::ruleSupportHeader(c)},
        {"cann/framework/onnx_plugin/" + spec.name + "_plugin.cc", cann::onnxPlugin(c)},
        {"cann/op_info/" + spec.name + ".ini", cann::opInfoIni(c)},
        {"cann/" + spec.name + ".json", cann::msOpGenJson(c)},
    };
}

} // namespace ptowb::codegen
