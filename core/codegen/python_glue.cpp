#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

#include <algorithm>

namespace ptowb::codegen {

// python_glue_onnx.cpp: the functions generated for the module's ONNX part.
std::string pythonOnnxFunctions(const OpSpec& spec, const PythonNames& names,
                                std::size_t keywordOnly);

namespace {

// torch >= 2.4 autograd: setup_context saves the inputs and parameters, backward calls the
// op's backward op (see _pt_gradients) and returns one gradient per positional argument.
std::string backwardFunctions(const OpSpec& spec, const PythonNames& names, std::size_t keywordOnly)
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
    std::string gen;
    gen += "\n\ndef _PT_setup_context(ctx, inputs, " +
           std::string(hasKeywordOnly ? "keyword_only_inputs, " : "") + "output):\n";
    gen += "    ctx.save_for_backward(*inputs[:" + std::to_string(inputCount) + "])\n";
    gen += "    ctx.ptowb_parameters = [" + parameterValues + "]\n";
    gen += "\n\ndef _PT_backward(ctx, *grads):\n";
    gen += "    inputs = ctx.saved_tensors\n";
    gen += "    computed = _PT_BACKWARD_OP(list(grads), list(inputs), *ctx.ptowb_parameters)\n";
    gen += "    return tuple(g if _pt_differentiable(t) else None for g, t in zip(computed, "
           "inputs)) + (None,) * " +
           std::to_string(std::min(keywordOnly, spec.params.size())) + "\n";
    gen += "\n\ndef _PT_backward_entry(grads, inputs" + params + "):\n";
    gen += "    return _pt_gradients(grads, inputs, {" + namedParams + "})\n";
    gen += "\n\ndef _PT_backward_fake(grads, inputs" + params + "):\n";
    gen += "    return [torch.empty_like(t) for t in inputs]\n";
    return gen;
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

// op.json's kernel arguments for one call: {name: value} or {name: {'class': ..., 'fields':
// {...}}}.
std::string kernelArgumentFunction(const OpSpec& spec, const PythonNames& names,
                                   const std::string& args)
{
    std::string gen = "\n\ndef _PT_kernel_arguments(" + args + "):\n";
    gen += "    \"\"\"The kernel parameters op.json binds to values (\"kernel\": "
           "{\"arguments\"}).\"\"\"\n";
    gen += "    return {\n";
    for (const KernelArgumentSpec& a : spec.kernelArguments) {
        auto value = [&](const KernelArgumentSpec::Field& f) {
            const std::string what = "kernel argument '" + a.name + "'" +
                                     (f.name.empty() ? "" : " field '" + f.name + "'");
            return "_pt_rule(" + pythonStringLiteral(what) +
                   ", lambda: " + emitPython(f.rule->root(), names) + ")";
        };
        gen += "        " + pythonStringLiteral(a.name) + ": ";
        if (a.className.empty()) {
            gen += value(a.fields.at(0)) + ",\n";
            continue;
        }
        gen += "{'class': " + pythonStringLiteral(a.className) + ", 'fields': {";
        for (const auto& f : a.fields)
            gen += pythonStringLiteral(f.name) + ": " + value(f) + ", ";
        gen += "}},\n";
    }
    return gen + "    }\n";
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

    std::string gen;
    gen += "\ndef _PT_check(" + args + "):\n";
    gen += "    \"\"\"Input dtypes and ranks, then the description's constraints.\"\"\"\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes)
            dtypes += "torch." + std::string(dtypeInfo(d).torchName) + ", ";
        gen += "    _pt_check_input(" + pythonStringLiteral(in.name) + ", " + names.inputs[k] +
               ", (" + dtypes + "), " + (in.rank ? std::to_string(*in.rank) : "None") + ")\n";
    }
    for (const auto& c : spec.constraints) {
        gen += "    if not _pt_rule(" + pythonStringLiteral("constraint " + c.check) +
               ", lambda: " + emitPython(c.rule->root(), names) + "):\n";
        gen += "        raise ValueError(QUALIFIED_NAME + ': ' + " +
               pythonStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold"
                                                     : c.message) +
               ")\n";
    }
    gen += "\n\ndef _PT_output_rules(" + args + "):\n";
    gen += "    return [\n";
    for (const auto& out : spec.outputs)
        gen += "        (" + pythonStringLiteral(out.name) +
               ",\n         lambda: " + emitPython(out.shape->root(), names) +
               ",\n         lambda: " + emitPython(out.dtype->root(), names) + "),\n";
    gen += "    ]\n";

    gen += kernelArgumentFunction(spec, names, args);

    const std::string firstInput = spec.inputs.empty() ? "" : names.inputs[0];
    gen += "\n\ndef _PT_cpu(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_run({" + namedArgs + "}, _pt_outputs(" + args +
           "), _PT_kernel_arguments(" + args + "))\n";
    gen += "\n\ndef _PT_meta(" + args + "):\n";
    gen += "    _PT_check(" + args + ")\n";
    gen += "    return _pt_empty_outputs(" +
           (firstInput.empty() ? std::string("'meta'") : firstInput + ".device") + ", (" + args +
           (args.empty() ? "" : ",") + "))\n";
    gen += "\n\n# Entry points with the schema's argument names; torch calls them positionally or "
           "by keyword.\n";
    gen += "def _PT_cpu_entry(" + entryParams + "):\n    return _PT_cpu(" + entryCall + ")\n";
    gen += "\n\ndef _PT_meta_entry(" + entryParams + "):\n    return _PT_meta(" + entryCall + ")\n";
    gen += backwardFunctions(spec, names, keywordOnly);

    gen += pythonOnnxFunctions(spec, names, keywordOnly);

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
    const std::string kernelFile = spec.kernel.file.substr(spec.kernel.file.find_last_of('/') + 1);
    std::vector<std::pair<std::string, std::string>> referenceAliases;
    const std::string referenceSource = stripImports(source.reference, referenceAliases);
    std::string referenceNames;
    for (const auto& [alias, target] : referenceAliases)
        referenceNames += (referenceNames.empty() ? "" : ", ") + pythonStringLiteral(alias) + ": " +
                          pythonStringLiteral(target);
    std::vector<std::string> allowed;
    for (const std::string& op : referenceAllowedOperators())
        allowed.push_back(pythonStringLiteral(op));

    const std::string module =
        fillTemplate(pythonModuleTemplate(),
                     {
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
                         {"GENERATED", gen},
                     });
    const std::string dir = "python/" + facts.packageName + "/";
    return {{dir + "__init__.py", module}};
}

} // namespace ptowb::codegen
