#include "onnxmodel/onnx_model.h"
#include "onnxmodel/stand_in_dims.h"
#include "spec/dtype_combinations.h"
#include "spec/inference.h"

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

namespace ptowb::onnxtools {

namespace {

std::optional<DType> fromOnnx(int elementType)
{
    for (const auto& info : allDTypes())
        if (info.onnxElementType == elementType) return info.dtype;
    return std::nullopt;
}

std::vector<std::string> typeStrings(const std::vector<DType>& dtypes)
{
    std::vector<std::string> out;
    for (DType d : dtypes)
        out.push_back(onnxTensorType(d));
    return out;
}

rules::Value attributeValue(const onnx::AttributeProto& a, ParamType type)
{
    switch (type) {
    case ParamType::Bool:
        return rules::Value::ofBool(a.i() != 0);
    case ParamType::Int:
        return rules::Value::ofInt(a.i());
    case ParamType::Float:
        return rules::Value::ofFloat(a.f());
    case ParamType::Str:
        return rules::Value::ofStr(a.s());
    case ParamType::IntList:
        return rules::Value::ofShape({a.ints().begin(), a.ints().end()});
    case ParamType::FloatList:
        return rules::Value::ofFloatList({a.floats().begin(), a.floats().end()});
    }
    return {};
}

onnx::AttributeProto::AttributeType attributeType(ParamType type)
{
    onnx::AttributeProto::AttributeType out = onnx::AttributeProto::UNDEFINED;
    onnx::AttributeProto::AttributeType_Parse(std::string(paramTypeInfo(type).onnxAttrType), &out);
    return out;
}

void inferWithRules(const OpSpec& spec, onnx::InferenceContext& ctx)
{
    const std::string op = spec.ns + "::" + spec.name;
    std::vector<rules::Value> params;
    for (const auto& p : spec.params) {
        const onnx::AttributeProto* a = ctx.getAttribute(p.name);
        if (!a && !p.defaultValue)
            fail_shape_inference(op, ": attribute '", p.name, "' is required");
        params.push_back(a ? attributeValue(*a, p.type) : *p.defaultValue);
    }
    std::vector<rules::TensorInfo> inputs(spec.inputs.size());
    bool shapesKnown = true, dtypesKnown = true, ranksKnown = true;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const onnx::TypeProto* type = k < ctx.getNumInputs() ? ctx.getInputType(k) : nullptr;
        const auto dtype = type && type->has_tensor_type()
                               ? fromOnnx(type->tensor_type().elem_type())
                               : std::nullopt;
        dtypesKnown = dtypesKnown && dtype;
        if (dtype) inputs[k].dtype = *dtype;
        if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) {
            shapesKnown = ranksKnown = false;
            continue;
        }
        for (const auto& d : type->tensor_type().shape().dim()) {
            shapesKnown = shapesKnown && d.has_dim_value();
            inputs[k].shape.push_back(d.dim_value());
        }
    }
    if (shapesKnown && dtypesKnown) {
        auto inferred = inferOutputs(spec, inputs, params);
        if (auto* error = std::get_if<InferenceError>(&inferred))
            fail_shape_inference(op, ": ", error->message);
        const auto& outputs = std::get<std::vector<InferredOutput>>(inferred);
        for (std::size_t k = 0; k < outputs.size() && k < ctx.getNumOutputs(); ++k) {
            auto* tensor = ctx.getOutputType(k)->mutable_tensor_type();
            tensor->set_elem_type(dtypeInfo(outputs[k].dtype).onnxElementType);
            auto* shape = tensor->mutable_shape();
            shape->clear_dim();
            for (std::int64_t d : outputs[k].shape)
                shape->add_dim()->set_dim_value(d);
        }
        return;
    }
    // Some dims are unknown: the dtypes can still follow when their rules need no shape.
    if (!dtypesKnown) return;
    const rules::RuleBindings bindings{inputs, params};
    for (std::size_t k = 0; k < spec.outputs.size() && k < ctx.getNumOutputs(); ++k) {
        auto value = spec.outputs[k].dtype->evaluate(bindings);
        if (auto* v = std::get_if<rules::Value>(&value); v && v->type == rules::Type::DType)
            ctx.getOutputType(k)->mutable_tensor_type()->set_elem_type(
                dtypeInfo(v->dtype).onnxElementType);
    }
    // And the shapes, over stand-ins for the unknown dims, when every input has a rank.
    if (!ranksKnown) return;
    ptowb_dims::StandIns standIns;
    std::vector<std::vector<std::optional<std::vector<std::int64_t>>>> shapes(spec.outputs.size());
    for (int run = 0; run < ptowb_dims::kRuns; ++run) {
        std::vector<rules::TensorInfo> standing = inputs;
        for (std::size_t k = 0; k < standing.size(); ++k)
            standing[k].shape = standIns.dims(run, *ctx.getInputType(k));
        const rules::RuleBindings runBindings{standing, params};
        for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
            auto value = spec.outputs[k].shape->evaluate(runBindings);
            auto* v = std::get_if<rules::Value>(&value);
            shapes[k].push_back(v && v->type == rules::Type::Shape ? std::optional(v->ints)
                                                                   : std::nullopt);
        }
    }
    for (std::size_t k = 0; k < spec.outputs.size() && k < ctx.getNumOutputs(); ++k) {
        onnx::TensorShapeProto shape;
        if (standIns.merge(shapes[k], &shape))
            ctx.getOutputType(k)->mutable_tensor_type()->mutable_shape()->CopyFrom(shape);
    }
}

} // namespace

std::string registerOpSchema(const OpSpec& spec)
{
    try {
        if (onnx::OpSchemaRegistry::Schema(spec.opType, 1, spec.ns)) return {};
        auto& domains = onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
        if (!domains.Map().count(spec.ns)) domains.AddDomainToVersion(spec.ns, 1, 1);
        const auto combinations = dtypeCombinations(spec);
        onnx::OpSchema schema(spec.opType, "op.json", 0);
        schema.SetDomain(spec.ns).SinceVersion(1).SetDoc(spec.doc);
        for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
            const std::string constraint = "T_" + spec.inputs[k].name;
            schema.Input(int(k), spec.inputs[k].name, spec.inputs[k].doc, constraint);
            schema.TypeConstraint(constraint, typeStrings(inputDTypes(combinations, k)),
                                  "dtypes of input " + spec.inputs[k].name);
        }
        for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
            const std::string constraint = "T_out_" + spec.outputs[k].name;
            schema.Output(int(k), spec.outputs[k].name, spec.outputs[k].doc, constraint);
            schema.TypeConstraint(constraint, typeStrings(outputDTypes(combinations, k)),
                                  "dtypes of output " + spec.outputs[k].name);
        }
        for (const auto& p : spec.params)
            schema.Attr(p.name, p.doc, attributeType(p.type), !p.defaultValue.has_value());
        schema.Attr("ptowb_record",
                    "JSON naming the op, its version and the sha256 of its description and kernel",
                    onnx::AttributeProto::STRING, false);
        schema.TypeAndShapeInferenceFunction(
            [spec](onnx::InferenceContext& ctx) { inferWithRules(spec, ctx); });
        onnx::OpSchemaRegistry::OpSchemaRegisterOnce registration(schema);
    } catch (const std::exception& e) {
        return std::string("cannot register the ONNX schema of ") + spec.opType + ": " + e.what();
    }
    return {};
}

} // namespace ptowb::onnxtools
