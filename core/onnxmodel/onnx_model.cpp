#include "onnxmodel/onnx_model.h"

#include <fstream>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <sstream>
#include <unordered_map>

namespace ptowb::onnxtools {

struct OnnxModel::Impl
{
    onnx::ModelProto model;
};

OnnxModel::OnnxModel(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
OnnxModel::~OnnxModel() = default;
OnnxModel::OnnxModel(OnnxModel&&) noexcept = default;
OnnxModel& OnnxModel::operator=(OnnxModel&&) noexcept = default;

std::variant<OnnxModel, std::string> OnnxModel::load(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open " + path;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    const std::string data = bytes.str();
    if (data.empty()) return path + " is empty, not an ONNX model";
    auto impl = std::make_unique<Impl>();
    if (!impl->model.ParseFromString(data))
        return path + " is not an ONNX model (protobuf parsing failed)";
    if (!impl->model.has_graph()) return path + " has no graph";
    return OnnxModel(std::move(impl));
}

std::string OnnxModel::inferShapes()
{
    auto* graph = m_impl->model.mutable_graph();
    graph->clear_value_info();
    for (auto& output : *graph->mutable_output())
        output.mutable_type()->mutable_tensor_type()->clear_shape();
    onnx::ShapeInferenceOptions options;
    options.check_type = false;
    options.error_mode =
        1; // a violated constraint or rule error in a node is an error, not a silent gap
    try {
        onnx::shape_inference::InferShapes(m_impl->model, onnx::OpSchemaRegistry::Instance(),
                                           options);
    } catch (const std::exception& e) {
        return std::string("ONNX shape inference failed: ") + e.what();
    }
    return {};
}

namespace {

std::string describeType(const onnx::TypeProto& type)
{
    if (!type.has_tensor_type()) return "?";
    const auto& tensor = type.tensor_type();
    std::string dtype = "?";
    for (const auto& info : allDTypes())
        if (info.onnxElementType == tensor.elem_type()) dtype = std::string(info.name);
    if (!tensor.has_shape()) return dtype + "[?]";
    std::string dims;
    for (const auto& d : tensor.shape().dim()) {
        dims += dims.empty() ? "" : ",";
        dims += d.has_dim_value()   ? std::to_string(d.dim_value())
                : d.has_dim_param() ? d.dim_param()
                                    : "?";
    }
    return dtype + "[" + dims + "]";
}

} // namespace

std::vector<std::string> OnnxModel::describeValues() const
{
    const auto& graph = m_impl->model.graph();
    std::unordered_map<std::string, const onnx::TypeProto*> types;
    for (const auto& v : graph.value_info())
        types[v.name()] = &v.type();
    for (const auto& v : graph.output())
        types[v.name()] = &v.type();
    std::vector<std::string> lines;
    for (const auto& v : graph.input())
        lines.push_back(v.name() + ": " + describeType(v.type()));
    for (const auto& node : graph.node())
        for (const auto& name : node.output()) {
            auto it = types.find(name);
            lines.push_back(name + ": " +
                            (it == types.end() ? std::string("?") : describeType(*it->second)));
        }
    return lines;
}

std::vector<CustomNode> OnnxModel::customNodes() const
{
    std::vector<CustomNode> nodes;
    for (const auto& node : m_impl->model.graph().node()) {
        if (node.domain().empty() || node.domain() == "ai.onnx" || node.domain() == "ai.onnx.ml")
            continue;
        CustomNode custom{node.name(), node.domain(), node.op_type(), std::nullopt};
        for (const auto& a : node.attribute())
            if (a.name() == "ptowb_record" && a.type() == onnx::AttributeProto::STRING)
                custom.record = a.s();
        nodes.push_back(std::move(custom));
    }
    return nodes;
}

std::string OnnxModel::serialize() const
{
    return m_impl->model.SerializeAsString();
}

} // namespace ptowb::onnxtools
