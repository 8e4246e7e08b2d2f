#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "spec/dtype_combinations.h"
#include "text/template_text.h"

namespace ptowb::codegen {

namespace {

constexpr const char* kCMakeTemplate = R"CMAKE(@HEADER@
# The ONNX schema of @QUALIFIED@ as a library: call @PACKAGE@_register_onnx_schema() before
# checking or shape-inferring a model that uses the op.
cmake_minimum_required(VERSION 3.18)
project(@PACKAGE@_onnx LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

set(PTOWB_DIR "" CACHE PATH "folder holding ptowbConfig.cmake: a ptowb build's cmake/ptowb or an install's lib/cmake/ptowb")
find_package(ptowb CONFIG REQUIRED HINTS "${PTOWB_DIR}")
find_package(Protobuf REQUIRED) # ONNX's CMake package needs it first
find_package(ONNX REQUIRED)

add_library(@PACKAGE@_onnx SHARED @PACKAGE@_schema.cc)
target_include_directories(@PACKAGE@_onnx PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(@PACKAGE@_onnx PUBLIC onnx PRIVATE ptowb::ptowb_runtime)
)CMAKE";

constexpr const char* kHeaderTemplate = R"CPP(@HEADER@
#pragma once

// Registers the ONNX schema of @QUALIFIED@ (domain @DOMAIN@, type @OP_TYPE@, version 1)
// with ONNX's schema registry, including type and shape inference. Safe to call twice.
extern "C" void @PACKAGE@_register_onnx_schema();
)CPP";

constexpr const char* kSourceTemplate = R"CPP(@HEADER@
// ONNX schema of @QUALIFIED@ with type and shape inference emitted from the description's
// rules: the shapes ONNX infers are the shapes the workbench and the torch glue compute.
#include "@PACKAGE@_schema.h"

#include "onnxmodel/stand_in_dims.h"
#include "rules/emitted_support.h"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

const char* const kQualifiedName = @QUALIFIED_LIT@;
const char* const kDomain = @DOMAIN_LIT@;
const char* const kOpType = @OP_TYPE_LIT@;

// Thrown when a rule needs a dim, rank or dtype the graph does not know: that part of the
// output type stays unknown, as ONNX expects.
struct Unknown
{
};

struct GraphTensor
{
    const onnx::TypeProto* type;
};

// While output shapes are inferred over stand-ins for unknown dims (onnxmodel/stand_in_dims.h):
// the stand-ins and the run.
thread_local ptowb_dims::StandIns* t_standIns = nullptr;
thread_local int t_run = 0;

std::int64_t ptRank(const GraphTensor& t)
{
    if (!t.type || !t.type->has_tensor_type() || !t.type->tensor_type().has_shape()) throw Unknown{};
    return t.type->tensor_type().shape().dim_size();
}

std::vector<std::int64_t> ptShape(const GraphTensor& t)
{
    ptRank(t);
    if (t_standIns) return t_standIns->dims(t_run, *t.type);
    std::vector<std::int64_t> dims;
    for (const auto& dim : t.type->tensor_type().shape().dim()) {
        if (!dim.has_dim_value()) throw Unknown{};
        dims.push_back(dim.dim_value());
    }
    return dims;
}

// One output's shape in every stand-in run, merged into its type when the runs agree on a rank.
template <class Compute> void setStandInShape(onnx::TypeProto* type, Compute compute)
{
    ptowb_dims::StandIns standIns;
    std::vector<std::optional<std::vector<std::int64_t>>> runs;
    t_standIns = &standIns;
    for (t_run = 0; t_run < ptowb_dims::kRuns; ++t_run) {
        try {
            runs.push_back(compute());
        } catch (const Unknown&) {
            runs.push_back(std::nullopt);
        } catch (const ptowb::emitted::RuleError&) {
            runs.push_back(std::nullopt);
        }
    }
    t_standIns = nullptr;
    onnx::TensorShapeProto shape;
    if (standIns.merge(runs, &shape)) type->mutable_tensor_type()->mutable_shape()->CopyFrom(shape);
}

std::int64_t ptNumel(const GraphTensor& t)
{
    std::int64_t n = 1;
    for (std::int64_t d : ptShape(t)) n = ptowb::emitted::mul(n, d);
    return n;
}

ptowb::DType ptDType(const GraphTensor& t)
{
    if (!t.type || !t.type->has_tensor_type()) throw Unknown{};
    switch (t.type->tensor_type().elem_type()) {
@DTYPE_FROM_ONNX@    default: throw Unknown{};
    }
}

int onnxElementType(ptowb::DType dtype)
{
    switch (dtype) {
@DTYPE_TO_ONNX@    }
    return 0;
}

const onnx::AttributeProto* attribute(onnx::InferenceContext& ctx, const char* name, bool required)
{
    const onnx::AttributeProto* a = ctx.getAttribute(name);
    if (!a && required) fail_shape_inference(kQualifiedName, ": attribute '", name, "' is required");
    return a;
}

template <class Compute> void tryRule(const char* what, Compute compute)
{
    try {
        compute();
    } catch (const Unknown&) {
    } catch (const ptowb::emitted::RuleError& error) {
        fail_shape_inference(kQualifiedName, ": ", what, ": ", error.what());
    }
}

void setShape(onnx::TypeProto* type, const std::vector<std::int64_t>& dims)
{
    auto* shape = type->mutable_tensor_type()->mutable_shape();
    shape->clear_dim();
    for (std::int64_t d : dims) shape->add_dim()->set_dim_value(d);
}

@GENERATED@
} // namespace

extern "C" void @PACKAGE@_register_onnx_schema()
{
    if (onnx::OpSchemaRegistry::Schema(kOpType, 1, kDomain)) return;
    auto& domains = onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
    if (!domains.Map().count(kDomain)) domains.AddDomainToVersion(kDomain, 1, 1);
    onnx::OpSchema schema(kOpType, __FILE__, __LINE__);
    schema.SetDomain(kDomain).SinceVersion(1).SetDoc(@DOC_LIT@);
@SCHEMA@    schema.Attr("ptowb_record", "JSON naming the op, its version and the sha256 of its description and kernel",
                onnx::AttributeProto::STRING, false);
    schema.TypeAndShapeInferenceFunction(inferTypesAndShapes);
    onnx::OpSchemaRegistry::OpSchemaRegisterOnce registration(schema);
}
)CPP";

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

std::string readAttribute(const ParamSpec& p, const std::string& variable)
{
    const std::string a = "a_" + variable;
    std::string out = "    const onnx::AttributeProto* " + a + " = attribute(ctx, " +
                      cppCharLiteral(p.name) + ", " + (p.defaultValue ? "false" : "true") + ");\n";
    const std::string fallback = p.defaultValue
                                     ? cppLiteral(*p.defaultValue)
                                     : std::string(paramTypeInfo(p.type).cppValue) + "{}";
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
    out += "    const " + std::string(paramTypeInfo(p.type).cppValue) + " " + variable + " = " + a +
           " ? " + value + " : " + fallback + ";\n";
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
                    ": return ptowb::DType::" + std::string(info.cppEnum) + "; // " +
                    std::string(info.onnxName) + "\n";
        toOnnx += "    case ptowb::DType::" + std::string(info.cppEnum) + ": return " +
                  std::to_string(info.onnxElementType) + ";\n";
    }

    std::string gen = "void inferTypesAndShapes(onnx::InferenceContext& ctx)\n{\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        gen += "    const GraphTensor " + names.inputs[k] + "{ctx.getInputType(" +
               std::to_string(k) + ")};\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        gen += readAttribute(spec.params[k], names.params[k]);
    gen += "    const bool unknownDims = false";
    for (const auto& n : names.inputs)
        gen += " || ptowb_dims::StandIns::hasUnknownDim(" + n + ".type)";
    gen += ";\n";
    for (const auto& c : spec.constraints) {
        gen += "    tryRule(" + cppCharLiteral("constraint " + c.check) + ", [&] {\n";
        gen += "        if (!(" + emitCpp(c.rule->root(), names) + "))\n";
        gen += "            fail_shape_inference(kQualifiedName, \": \", " +
               cppStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold"
                                                  : c.message) +
               ");\n";
        gen += "    });\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const OutputSpec& out = spec.outputs[k];
        const std::string index = std::to_string(k);
        gen += "    tryRule(" + cppCharLiteral("dtype of output '" + out.name + "'") + ", [&] {\n";
        gen += "        ctx.getOutputType(" + index +
               ")->mutable_tensor_type()->set_elem_type(onnxElementType(" +
               emitCpp(out.dtype->root(), names) + "));\n    });\n";
        gen += "    if (unknownDims)\n";
        gen += "        setStandInShape(ctx.getOutputType(" + index + "), [&] { return " +
               emitCpp(out.shape->root(), names) + "; });\n";
        gen += "    else\n";
        gen += "        tryRule(" + cppCharLiteral("shape of output '" + out.name + "'") +
               ", [&] { setShape(ctx.getOutputType(" + index + "), " +
               emitCpp(out.shape->root(), names) + "); });\n";
    }
    gen += "}\n";

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
        {"onnx/CMakeLists.txt", fillTemplate(kCMakeTemplate, {{"HEADER", headerComment("#", facts)},
                                                              {"QUALIFIED", facts.qualifiedName},
                                                              {"PACKAGE", facts.packageName}})},
        {base + "_schema.h", fillTemplate(kHeaderTemplate, {{"HEADER", headerComment("//", facts)},
                                                            {"QUALIFIED", facts.qualifiedName},
                                                            {"DOMAIN", spec.ns},
                                                            {"OP_TYPE", spec.opType},
                                                            {"PACKAGE", facts.packageName}})},
        {base + "_schema.cc",
         fillTemplate(kSourceTemplate,
                      {
                          {"HEADER", headerComment("//", facts)},
                          {"QUALIFIED", facts.qualifiedName},
                          {"PACKAGE", facts.packageName},
                          {"QUALIFIED_LIT", cppCharLiteral(facts.qualifiedName)},
                          {"DOMAIN_LIT", cppCharLiteral(spec.ns)},
                          {"OP_TYPE_LIT", cppCharLiteral(spec.opType)},
                          {"DOC_LIT", cppStringLiteral(spec.doc)},
                          {"DTYPE_FROM_ONNX", fromOnnx},
                          {"DTYPE_TO_ONNX", toOnnx},
                          {"GENERATED", gen},
                          {"SCHEMA", schema},
                      })},
    };
}

} // namespace ptowb::codegen
