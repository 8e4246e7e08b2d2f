#pragma once

#include "spec/op_spec.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ptowb::onnxtools {

// A node of a custom (non-ONNX) domain, with its ptowb_record attribute when it has one.
struct CustomNode
{
    std::string name;
    std::string domain;
    std::string opType;
    std::optional<std::string> record;
};

// An ONNX model file, loaded for shape inference and inspection. Keeps ONNX's protobuf types
// out of this header.
class OnnxModel
{
public:
    static std::variant<OnnxModel, std::string> load(const std::string& path);
    ~OnnxModel();
    OnnxModel(OnnxModel&&) noexcept;
    OnnxModel& operator=(OnnxModel&&) noexcept;

    // Forgets every inferred type, then runs ONNX shape inference over the whole graph with
    // the schemas registered so far. Returns "" or ONNX's error.
    std::string inferShapes();

    // "name: dtype[d0,d1,...]" for the graph inputs, then every node output in graph order;
    // an unknown dim prints as "?", a symbolic one as its name.
    std::vector<std::string> describeValues() const;

    std::vector<CustomNode> customNodes() const;

    // The serialized model.
    std::string serialize() const;

private:
    struct Impl;
    explicit OnnxModel(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Registers the op's ONNX schema (domain = namespace, type = op_type, version 1) with type and
// shape inference by the rule evaluator, as the package's generated onnx/ library does with
// the rules emitted as C++. Registering the same op twice is a no-op. Returns "" or the error.
std::string registerOpSchema(const OpSpec& spec);

} // namespace ptowb::onnxtools
