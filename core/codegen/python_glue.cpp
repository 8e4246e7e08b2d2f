#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ptowb::codegen {

// python_glue_onnx.cpp: the values of the module's ONNX part.
std::vector<std::pair<std::string, std::string>>
pythonOnnxValues(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly);

namespace {

// torch >= 2.4 autograd: setup_context saves the inputs and parameters, backward calls the
// op's backward op (see _pt_gradients) and returns one gradient per positional argument.
std::vector<std::pair<std::string, std::string>>
backwardValues(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly)
{
    const std::size_t inputCount = spec.inputs.size();
    std::string params, namedParams, parameterValues;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        params += ", " + names.params[k];
        namedParams += (namedParams.empty() ? "" : ", ") +
                       pythonStringLiteral(spec.params[k].name) + ": " + names.params[k];
        parameterValues += k < keywordOnly ? "inputs[" + std::to_string(inputCount + k) + "], "
                                           : "keyword_only_inputs[" +
                                                 pythonStringLiteral(spec.params[k].name) + "], ";
    }
    const bool hasKeywordOnly = keywordOnly < spec.params.size();
    return {
        {"KEYWORD_ONLY_INPUTS", hasKeywordOnly ? "keyword_only_inputs, " : ""},
        {"INPUT_COUNT", std::to_string(inputCount)},
        {"PARAMETER_VALUES", parameterValues},
        {"POSITIONAL_PARAM_COUNT", std::to_string(std::min(keywordOnly, spec.params.size()))},
        {"PARAMS", params},
        {"NAMED_PARAMS", namedParams},
    };
}

// The backward op's schema: the output gradients, the inputs and every parameter, positional.
std::string backwardSchema(const OpSpec& spec, const PythonNames& names)
{
    std::string schema = spec.name + "_ptowb_backward(Tensor[] grads, Tensor[] inputs";
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        schema += ", " + std::string(paramTypeInfo(spec.params[k].type).torchSchema) + " " +
                  names.params[k];
    return schema + ") -> Tensor[]";
}

// A literal kernel argument (numbers, strings, booleans and lists of them) as Python, which
// reads it as the kernel worker's JSON decoder does: lists stay lists.
std::string pythonLiteral(const nlohmann::json& value)
{
    if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
    if (value.is_string()) return pythonStringLiteral(value.get<std::string>());
    // A literal dict keeps op.json's spelling, {'dict': [[key, value], ...]}, which the module
    // turns into the dict (_pt_literal) and hands the kernel worker as it is.
    if (value.is_object()) return "{'dict': " + pythonLiteral(value.at("dict")) + "}";
    if (!value.is_array()) return value.dump();
    std::string out = "[";
    for (std::size_t k = 0; k < value.size(); ++k)
        out += (k ? ", " : "") + pythonLiteral(value[k]);
    return out + "]";
}

// One evaluated made_with value in Python: a dtype as the torch dtype (which the glue hands PyPTO
// as its dtype and the kernel worker as its name, like a kernel argument's), a config as
// {'class': ..., 'fields': {...}} as the kernel arguments have it.
std::string madeWithValuePython(const nlohmann::json& value)
{
    if (value.is_null()) return "None";
    if (value.is_object() && value.contains("class")) {
        std::string fields;
        for (const auto& [field, v] : value.at("fields").items())
            fields += (fields.empty() ? "" : ", ") + pythonStringLiteral(field) + ": " +
                      madeWithValuePython(v);
        return "{'class': " + pythonStringLiteral(value.at("class").get<std::string>()) +
               ", 'fields': {" + fields + "}}";
    }
    const auto dtype =
        value.is_object() ? dtypeFromName(value.value("dtype", std::string())) : std::nullopt;
    return dtype ? "torch." + std::string(dtypeInfo(*dtype).torchName) : pythonLiteral(value);
}

// op.json's kernel.made_with as a Python dict; None: none.
std::string madeWithPython(const OpSpec& spec)
{
    if (spec.kernel.madeWithJson.empty()) return "None";
    const auto values = nlohmann::json::parse(spec.kernel.madeWithJson);
    std::string out = "{";
    for (const auto& [name, value] : values.items())
        out += (out.size() > 1 ? ", " : "") + pythonStringLiteral(name) + ": " +
               madeWithValuePython(value);
    return out + "}";
}

// op.json's kernel arguments for one call: {name: value} or {name: {'class': ..., 'fields':
// {...}}}, one dict entry a line.
std::string kernelArguments(const OpSpec& spec, const PythonNames& names)
{
    std::string entries;
    for (const KernelArgumentSpec& a : spec.kernelArguments) {
        auto value = [&](const KernelArgumentSpec::Field& f) {
            if (!f.literalJson.empty()) return pythonLiteral(nlohmann::json::parse(f.literalJson));
            const std::string what = "kernel argument '" + a.name + "'" +
                                     (f.name.empty() ? "" : " field '" + f.name + "'");
            return "_pt_rule(" + pythonStringLiteral(what) +
                   ", lambda: " + emitPython(f.rule->root(), names) + ")";
        };
        entries += "        " + pythonStringLiteral(a.name) + ": ";
        if (a.className.empty()) {
            entries += value(a.fields.at(0)) + ",\n";
            continue;
        }
        entries += "{'class': " + pythonStringLiteral(a.className) + ", 'fields': {";
        for (const auto& f : a.fields)
            entries += pythonStringLiteral(f.name) + ": " + value(f) + ", ";
        entries += "}},\n";
    }
    return entries;
}

// _PT_check's body: input dtypes and ranks, then the constraints.
std::string checks(const OpSpec& spec, const PythonNames& names)
{
    std::string out;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes)
            dtypes += "torch." + std::string(dtypeInfo(d).torchName) + ", ";
        out += "    _pt_check_input(" + pythonStringLiteral(in.name) + ", " + names.inputs[k] +
               ", (" + dtypes + "), " + (in.rank ? std::to_string(*in.rank) : "None") + ")\n";
    }
    for (const auto& c : spec.constraints) {
        out += "    if not _pt_rule(" + pythonStringLiteral("constraint " + c.check) +
               ", lambda: " + emitPython(c.rule->root(), names) + "):\n";
        out += "        raise ValueError(QUALIFIED_NAME + ': ' + " +
               pythonStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold"
                                                     : c.message) +
               ")\n";
    }
    return out;
}

} // namespace

std::vector<GeneratedFile> generatePythonGlue(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const PythonNames names = pythonNames(spec);

    std::string args, namedArgs, callExample, entryParams;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        args += (args.empty() ? "" : ", ") + names.inputs[k];
        namedArgs += (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(spec.inputs[k].name) +
                     ": " + names.inputs[k];
        callExample += (callExample.empty() ? "" : ", ") + spec.inputs[k].name;
        entryParams += (entryParams.empty() ? "" : ", ") + spec.inputs[k].name;
    }
    // The entry points take parameters as the schema declares them (see firstKeywordOnlyParam).
    const std::size_t keywordOnly = firstKeywordOnlyParam(spec);
    std::string entryCall;
    for (const auto& in : spec.inputs)
        entryCall += (entryCall.empty() ? "" : ", ") + in.name;
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamSpec& p = spec.params[k];
        args += (args.empty() ? "" : ", ") + names.params[k];
        namedArgs +=
            (namedArgs.empty() ? "" : ", ") + pythonStringLiteral(p.name) + ": " + names.params[k];
        // The docstring's example names the required parameters only: no value from the
        // description ever enters a docstring, where a quote could end it.
        if (!p.defaultValue) callExample += (callExample.empty() ? "" : ", ") + p.name + "=...";
        if (k == keywordOnly) entryParams += entryParams.empty() ? "*" : ", *";
        entryParams += (entryParams.empty() ? "" : ", ") + p.name +
                       (p.defaultValue ? "=" + pythonLiteral(*p.defaultValue) : "");
        entryCall += (entryCall.empty() ? "" : ", ") + p.name;
    }

    std::string outputRules;
    for (const auto& out : spec.outputs)
        outputRules += "        (" + pythonStringLiteral(out.name) +
                       ",\n         lambda: " + emitPython(out.shape->root(), names) +
                       ",\n         lambda: " + emitPython(out.dtype->root(), names) + "),\n";

    std::string dtypeTable, scalarTable, onnxTable, pyptoTable;
    for (const auto& info : allDTypes()) {
        dtypeTable += (dtypeTable.empty() ? "" : ", ") +
                      pythonStringLiteral(std::string(info.name)) + ": torch." +
                      std::string(info.torchName);
        scalarTable += (scalarTable.empty() ? "" : ", ") +
                       pythonStringLiteral(std::string(info.torchCpp)) + ": torch." +
                       std::string(info.torchName);
        pyptoTable += (pyptoTable.empty() ? "" : ", ") +
                      pythonStringLiteral(std::string(info.name)) + ": " +
                      pythonStringLiteral(std::string(info.pypto));
        onnxTable += (onnxTable.empty() ? "" : ", ") + std::to_string(info.onnxElementType) +
                     ": torch." + std::string(info.torchName);
    }
    std::string mutatedNames = "(";
    for (std::size_t k : spec.mutatedInputs())
        mutatedNames += pythonStringLiteral(spec.inputs[k].name) + ", ";
    mutatedNames += ")";
    std::string outputNames = "(", outputInits = "(";
    for (const auto& out : spec.outputs) {
        outputNames += pythonStringLiteral(out.name) + ", ";
        outputInits += (out.init ? pythonLiteral(rules::Value::ofFloat(*out.init)) : "None") + ", ";
    }
    outputNames += ")";
    outputInits += ")";
    std::string inputNames = "(";
    for (const auto& in : spec.inputs)
        inputNames += pythonStringLiteral(in.name) + ", ";
    inputNames += ")";
    const std::string kernelFile = packagedKernelFile(spec);
    std::vector<std::pair<std::string, std::string>> referenceAliases;
    const std::string referenceSource = stripImports(source.reference, referenceAliases);
    std::string referenceNames;
    for (const auto& [alias, target] : referenceAliases)
        referenceNames += (referenceNames.empty() ? "" : ", ") + pythonStringLiteral(alias) + ": " +
                          pythonStringLiteral(target);
    std::vector<std::string> allowed;
    for (const std::string& op : referenceAllowedOperators())
        allowed.push_back(pythonStringLiteral(op));

    std::vector<std::pair<std::string, std::string>> values{
        {"HEADER", headerComment("#", facts)},
        {"QUALIFIED", facts.qualifiedName},
        {"PACKAGE", facts.packageName},
        {"NAMESPACE", spec.ns},
        {"NAME", spec.name},
        {"CALL_EXAMPLE", callExample},
        {"NAMESPACE_LIT", pythonStringLiteral(spec.ns)},
        {"NAME_LIT", pythonStringLiteral(spec.name)},
        {"OP_TYPE_LIT", pythonStringLiteral(spec.opType)},
        {"VERSION_LIT", pythonStringLiteral(spec.version)},
        {"QUALIFIED_LIT", pythonStringLiteral(facts.qualifiedName)},
        {"SCHEMA_LIT", pythonStringLiteral(facts.torchSchema)},
        {"DOC_LIT", pythonStringLiteral(spec.doc)},
        {"RECORD_LIT", pythonStringLiteral(facts.record)},
        {"ONNX_OPSET", std::to_string(spec.targets.onnxOpset)},
        {"KERNEL_FILE_LIT", pythonStringLiteral(kernelFile)},
        {"KERNEL_FUNCTION_LIT", pythonStringLiteral(spec.kernel.function)},
        {"KERNEL_MADE_BY_LIT", pythonStringLiteral(spec.kernel.madeBy)},
        {"KERNEL_MADE_WITH", madeWithPython(spec)},
        {"KERNEL_MAKER_LIT",
         spec.kernel.madeBy.empty() ? std::string("None") : pythonStringLiteral(kernelMakerText())},
        {"REFERENCE_FUNCTION_LIT", pythonStringLiteral(spec.reference.function)},
        {"REFERENCE_SOURCE_LIT", pythonStringLiteral(referenceSource)},
        {"REFERENCE_NAMES", referenceNames},
        {"REFERENCE_ALLOWED", wrappedList(allowed, "    ")},
        {"OUTPUT_NAMES", outputNames},
        {"INPUT_NAMES", inputNames},
        {"BACKWARD_SCHEMA_LIT", pythonStringLiteral(backwardSchema(spec, names))},
        {"PRELUDE", pythonRulePrelude()},
        {"DTYPE_TABLE", dtypeTable},
        {"OUTPUT_INITS", outputInits},
        {"MUTATED_INPUTS", mutatedNames},
        {"PYPTO_DTYPE_TABLE", pyptoTable},
        {"SCALAR_TYPE_TABLE", scalarTable},
        {"ONNX_TYPE_TABLE", onnxTable},
        {"ARGS", args},
        {"CHECKS", checks(spec, names)},
        {"OUTPUT_RULES", outputRules},
        {"KERNEL_ARGUMENTS", kernelArguments(spec, names)},
        {"NAMED_ARGS", namedArgs},
        // An op that reads no tensor makes its outputs on the CPU (its fake tensors too).
        {"META_DEVICE", spec.inputs.empty() ? "'cpu'" : names.inputs[0] + ".device"},
        {"ARGS_TUPLE", args + (args.empty() ? "" : ",")},
        {"ENTRY_PARAMS", entryParams},
        {"ENTRY_CALL", entryCall},
    };
    for (auto* part : {&backwardValues, &pythonOnnxValues})
        for (auto& value : part(spec, names, keywordOnly))
            values.push_back(std::move(value));
    const std::string module = fillTemplate(pythonModuleTemplate(), values);
    const std::string dir = "python/" + facts.packageName + "/";
    return {{dir + "__init__.py", module}};
}

} // namespace ptowb::codegen
