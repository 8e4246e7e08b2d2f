// The functions generated per op for the ONNX part of every Python module (whose fixed part,
// templates/python_module.py.in, has the TorchScript exporter's symbolic function registration,
// output types stamped from the rules, the dynamo exporter's onnxscript translation,
// export_onnx, and ONNX Runtime sessions with the op).
#include "codegen/glue_facts.h"

namespace ptowb::codegen {

// The symbolic function of the TorchScript exporter, and the parameter tables the exporters and
// ONNX Runtime sessions read.
std::string pythonOnnxFunctions(const OpSpec& spec, const PythonNames& names,
                                std::size_t keywordOnly)
{
    std::string args, symbolicDescriptors;
    for (const auto& n : names.inputs) {
        args += (args.empty() ? "" : ", ") + n;
        symbolicDescriptors += symbolicDescriptors.empty() ? "'v'" : ", 'v'";
    }
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        args += (args.empty() ? "" : ", ") + names.params[k];
        symbolicDescriptors += std::string(symbolicDescriptors.empty() ? "" : ", ") + "'" +
                               std::string(paramTypeInfo(spec.params[k].type).torchOnnxArg) + "'";
    }
    std::string gen;
    gen += "\n\n@_pt_symbolic_helper.parse_args(" + symbolicDescriptors + ")\n";
    gen += "def _PT_symbolic(g" + std::string(args.empty() ? "" : ", ") + args + "):\n";
    gen += "    _pt_refuse_onnx_of_mutation()\n";
    gen += "    node = g.op(ONNX_DOMAIN + '::' + OP_TYPE";
    for (const auto& n : names.inputs)
        gen += ", " + n;
    gen += ", outputs=" + std::to_string(spec.outputs.size());
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const std::string suffix(paramTypeInfo(p.type).torchOnnxSuffix);
        std::string value = names.params[k];
        if (p.type == ParamType::Bool) value = "int(" + value + ")";
        if (p.type == ParamType::IntList || p.type == ParamType::FloatList)
            value = "list(" + value + ")";
        gen += ",\n                **{" + pythonStringLiteral(p.name + "_" + suffix) + ": " +
               value + "}";
    }
    gen += ",\n                ptowb_record_s=RECORD)\n";
    gen += "    outputs = list(node) if isinstance(node, (tuple, list)) else [node]\n";
    std::string graphArgs;
    for (const auto& n : names.inputs)
        graphArgs += (graphArgs.empty() ? "" : ", ") + std::string("_PT_GraphValue(") + n + ")";
    for (const auto& n : names.params)
        graphArgs += (graphArgs.empty() ? "" : ", ") + n;
    gen += "    rules = _PT_output_rules(" + graphArgs + ")\n";
    gen += "    for value, (name, shape, dtype) in zip(outputs, rules):\n";
    gen += "        value_type = value.type()\n";
    gen += "        try:  # a rule over an unknown (dynamic) dim leaves that part of the type "
           "unknown\n";
    gen += "            value_type = value_type.with_dtype(dtype())\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        try:\n";
    gen += "            value_type = value_type.with_sizes([None if isinstance(d, _PT_Dim) else d "
           "for d in shape()])\n";
    gen += "        except (RuleError, TypeError, KeyError, AttributeError):\n";
    gen += "            pass\n";
    gen += "        value.setType(value_type)\n";
    gen += "    return node\n";

    gen += "\n\n# (name, ONNX attribute type, default, keyword-only, Python type) of every "
           "parameter.\n";
    gen += "_PT_ONNX_PARAMETERS = (\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        const ParamTypeInfo& info = paramTypeInfo(p.type);
        const std::string element(info.name.substr(0, info.name.find('[')));
        const std::string annotation =
            info.name.ends_with("[]") ? "list[" + element + "]" : element;
        gen += "    (" + pythonStringLiteral(p.name) + ", " +
               pythonStringLiteral(std::string(info.onnxAttrType)) + ", " +
               (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") + ", " +
               (k >= keywordOnly ? "True" : "False") + ", " + annotation + "),\n";
    }
    gen += ")\n";
    gen += "\n\ndef _PT_NODE_PARAMETERS(node):\n    return [\n";
    for (const auto& p : spec.params)
        gen += "        _pt_node_attribute(node, " + pythonStringLiteral(p.name) + ", " +
               (p.defaultValue ? pythonLiteral(*p.defaultValue) : "_PT_REQUIRED") + ", " +
               pythonStringLiteral(std::string(paramTypeInfo(p.type).name)) + "),\n";
    gen += "    ]\n";
    return gen;
}

} // namespace ptowb::codegen
