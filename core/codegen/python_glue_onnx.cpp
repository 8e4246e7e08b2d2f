// The per-op values of the ONNX part of every Python module (templates/python_module.py.in,
// whose fixed text has the TorchScript exporter's symbolic function registration, output types
// stamped from the rules, the dynamo exporter's onnxscript translation, export_onnx, and ONNX
// Runtime sessions with the op).
#include "codegen/glue_facts.h"

namespace ptowb::codegen {

// The symbolic function of the TorchScript exporter, and the parameter tables the exporters and
// ONNX Runtime sessions read.
std::vector<std::pair<std::string, std::string>>
pythonOnnxValues(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly)
{
    std::string args, symbolicDescriptors, nodeInputs, graphArgs;
    for (const auto& n : names.inputs) {
        args += (args.empty() ? "" : ", ") + n;
        symbolicDescriptors += symbolicDescriptors.empty() ? "'v'" : ", 'v'";
        nodeInputs += ", " + n;
        graphArgs += (graphArgs.empty() ? "" : ", ") + std::string("_PT_GraphValue(") + n + ")";
    }
    std::string nodeAttributes, onnxParameters, nodeParameters;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const ParamTypeInfo& info = paramTypeInfo(p.type);
        args += (args.empty() ? "" : ", ") + names.params[k];
        graphArgs += (graphArgs.empty() ? "" : ", ") + names.params[k];
        symbolicDescriptors += std::string(symbolicDescriptors.empty() ? "" : ", ") + "'" +
                               std::string(info.torchOnnxArg) + "'";
        std::string value = names.params[k];
        if (p.type == ParamType::Bool) value = "int(" + value + ")";
        if (p.type == ParamType::IntList || p.type == ParamType::FloatList)
            value = "list(" + value + ")";
        nodeAttributes += ",\n                **{" +
                          pythonStringLiteral(p.name + "_" + std::string(info.torchOnnxSuffix)) +
                          ": " + value + "}";
        const std::string defaultValue =
            p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED";
        const std::string element(info.name.substr(0, info.name.find('[')));
        const std::string annotation =
            info.name.ends_with("[]") ? "list[" + element + "]" : element;
        onnxParameters += "    (" + pythonStringLiteral(p.name) + ", " +
                          pythonStringLiteral(std::string(info.onnxAttrType)) + ", " +
                          defaultValue + ", " + (k >= keywordOnly ? "True" : "False") + ", " +
                          annotation + "),\n";
        nodeParameters += "        _pt_node_attribute(node, " + pythonStringLiteral(p.name) + ", " +
                          defaultValue + ", " + pythonStringLiteral(std::string(info.name)) +
                          "),\n";
    }
    return {
        {"SYMBOLIC_DESCRIPTORS", symbolicDescriptors},
        {"SYMBOLIC_ARGS", args.empty() ? "" : ", " + args},
        {"NODE_INPUTS", nodeInputs},
        {"OUTPUT_COUNT", std::to_string(spec.outputs.size())},
        {"NODE_ATTRIBUTES", nodeAttributes},
        {"GRAPH_ARGS", graphArgs},
        {"ONNX_PARAMETERS", onnxParameters},
        {"NODE_PARAMETERS", nodeParameters},
    };
}

} // namespace ptowb::codegen
