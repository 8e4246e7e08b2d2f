// torch/: the op as a libtorch library that builds from the package alone, against any libtorch.
#include "codegen/cann_parts.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/cpp_rule_support.h"
#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

namespace ptowb::codegen {

using namespace std::string_literals;

namespace {

// How a dispatcher argument of this type becomes the value the reference is called with.
std::string fromDispatcher(ParamType type, const std::string& name)
{
    switch (type) {
    case ParamType::Str:
        return "std::string(" + name + ")";
    case ParamType::IntList:
        return name + ".vec()";
    case ParamType::FloatList:
        return "std::vector<double>(" + name + ".begin(), " + name + ".end())";
    default:
        return name;
    }
}

// The ptowb_Rt <-> at::ScalarType switches, from the type table's torch C++ names.
std::string torchDTypeSwitches()
{
    std::string from = "ptowb_Rt::DT fromTorch(at::ScalarType type)\n{\n    switch (type) {\n";
    std::string to = "at::ScalarType toTorch(ptowb_Rt::DType dtype)\n{\n    switch (dtype) {\n";
    for (const auto& info : allDTypes()) {
        from += "    case at::ScalarType::" + std::string(info.torchCpp) +
                ": return ptowb_Rt::dtypeOf(ptowb_Rt::DType::" + std::string(info.cppEnum) + ");\n";
        to += "    case ptowb_Rt::DType::" + std::string(info.cppEnum) +
              ": return at::ScalarType::" + std::string(info.torchCpp) + ";\n";
    }
    from += "    default: return ptowb_Rt::unknown<ptowb_Rt::DType>();\n    }\n}\n\n";
    to += "    }\n    return at::ScalarType::Undefined;\n}\n";
    std::string names = "const char* dtypeName(ptowb_Rt::DType dtype)\n{\n    switch (dtype) {\n";
    for (const auto& info : allDTypes())
        names += "    case ptowb_Rt::DType::" + std::string(info.cppEnum) + ": return \"" +
                 std::string(info.name) + "\";\n";
    names += "    }\n    return \"\";\n}\n";
    return from + to + names;
}

// The resolver header as the body of the generated file: its #pragma once would be a warning.
std::string resolverText()
{
    std::string text = referenceResolverText();
    const std::string once = "#pragma once\n";
    if (const std::size_t at = text.find(once); at != std::string::npos)
        text.erase(at, once.size());
    return text;
}

// setKernelArguments, which sets op.json's kernel arguments from the rules (sim only).
std::string kernelArgumentsFunction(const OpSpec& spec, const CppNames& names,
                                    const std::string& ruleParams)
{
    if (spec.kernelArguments.empty()) return "";
    std::string assignments;
    for (const KernelArgumentSpec& a : spec.kernelArguments) {
        const std::string slot =
            "        arguments.kernelArguments[" + cppCharLiteral(a.name) + "]";
        // A literal is its JSON text; a rule is evaluated per call.
        auto value = [&](const KernelArgumentSpec::Field& f) {
            return f.literalJson.empty()
                       ? "argumentJson(" + emitCppRule(f.rule->root(), names) + ")"
                       : cppCharLiteral(f.literalJson);
        };
        if (a.className.empty()) {
            assignments += slot + ".valueJson = " + value(a.fields.at(0)) + ";\n";
            continue;
        }
        assignments += slot + ".className = " + cppCharLiteral(a.className) + ";\n";
        for (const auto& f : a.fields)
            assignments +=
                slot + ".fieldsJson[" + cppCharLiteral(f.name) + "] = " + value(f) + ";\n";
    }
    return fillTemplate(torchKernelArgumentsTemplate(),
                        {{"RULE_PARAMS", ruleParams}, {"ASSIGNMENTS", assignments}});
}

} // namespace

std::vector<GeneratedFile> generateTorchLibrary(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const CppNames names = cppNames(spec);
    const std::string sourceFile = spec.name + "_op.cpp";

    // Dispatcher arguments -> C++ values (for the reference and the simulator) -> rule values.
    std::string dispatcherParams, converted, ruleArgs, ruleParams, ruleNames, referenceArgs;
    std::string tensorParams, tensorArgs, checkInputs, simInputs, simOutputs, simWriteBack;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        const std::string& n = names.inputs[k];
        dispatcherParams += (dispatcherParams.empty() ? "" : ", ") + "const at::Tensor& "s + n;
        tensorParams += (tensorParams.empty() ? "" : ", ") + "const at::Tensor& "s + n;
        tensorArgs += (tensorArgs.empty() ? "" : ", ") + n;
        referenceArgs += "        {" + cppStringLiteral(in.name) + ", " + n + "},\n";
        ruleArgs += (ruleArgs.empty() ? "" : ", ") + "ruleTensor("s + n + ")";
        ruleParams += (ruleParams.empty() ? "" : ", ") + "const ptowb_Rt::Tensor& "s + n;
        ruleNames += (ruleNames.empty() ? "" : ", ") + n;
        std::string dtypes;
        for (DType d : in.dtypes)
            dtypes += (dtypes.empty() ? "" : ", ") + "at::ScalarType::"s +
                      std::string(dtypeInfo(d).torchCpp);
        checkInputs += "    checkInput(" + cppCharLiteral(in.name) + ", " + n + ", {" + dtypes +
                       "}, " + std::to_string(in.rank.value_or(-1)) + ");\n";
        simInputs +=
            "        arguments.inputs[" + cppCharLiteral(in.name) + "] = " + n + ".contiguous();\n";
    }
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamTypeInfo& info = paramTypeInfo(spec.params[k].type);
        const std::string& n = names.params[k];
        dispatcherParams += (dispatcherParams.empty() ? "" : ", ") + std::string(info.torchCppArg) +
                            " " + n + "_arg";
        converted += "    const " + std::string(info.cppValue) + " " + n + " = " +
                     fromDispatcher(spec.params[k].type, n + "_arg") + ";\n";
        referenceArgs +=
            "        {" + cppStringLiteral(spec.params[k].name) + ", c10::IValue(" + n + ")},\n";
        ruleArgs += (ruleArgs.empty() ? "" : ", ") + cann::ruleValue(spec.params[k].type, n);
        ruleParams += (ruleParams.empty() ? "" : ", ") + "const "s +
                      cppRuleType(ruleTypeOf(spec.params[k].type)) + "& " + n;
        ruleNames += (ruleNames.empty() ? "" : ", ") + n;
        simInputs +=
            "        arguments.param(" + cppCharLiteral(spec.params[k].name) + ", " + n + ");\n";
    }
    if (!spec.kernelArguments.empty())
        simInputs += "        setKernelArguments(arguments, " + ruleArgs + ");\n";

    std::string outputTypes, returnType, result;
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const OutputSpec& out = spec.outputs[k];
        const std::string index = std::to_string(k);
        outputTypes += "            outputType(" + cppCharLiteral(out.name) + ", " +
                       emitCppRule(out.shape->root(), names) + ",\n                       " +
                       emitCppRule(out.dtype->root(), names) + "),\n";
        simOutputs += "        tensors.push_back(initialOutput(expected[" + index +
                      "].shape, expected[" + index + "].dtype, " +
                      (out.init ? cppLiteral(rules::Value::ofFloat(*out.init)) : "NAN"s) + "));\n";
        returnType += (k ? ", " : "") + "at::Tensor"s;
        result += (k ? ", " : "") + "tensors["s + index + "]";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        simOutputs += "        arguments.outputs[" + cppCharLiteral(spec.outputs[k].name) +
                      "] = tensors[" + std::to_string(k) + "];\n";
    for (std::size_t k : spec.mutatedInputs()) { // the kernel wrote it in place: so does the op
        const std::string name = cppCharLiteral(spec.inputs[k].name);
        simOutputs += "        arguments.mutated.push_back(" + name + ");\n";
        simWriteBack += "        " + names.inputs[k] + ".copy_(arguments.inputs[" + name + "]);\n";
    }
    if (spec.outputs.size() != 1) {
        returnType = "std::tuple<" + returnType + ">";
        result = "{" + result + "}";
    }
    // An op that reads no tensor: no input's device picks its kernel, so the reference is its
    // default kernel (CompositeExplicitAutograd), making CPU tensors; and torch takes it for one
    // with side effects (CONSERVATIVE), or TorchScript would fold it into a constant on export.
    const bool readsTensors = !spec.inputs.empty();
    const std::string outputOptions =
        readsTensors ? names.inputs[0] + ".options()" : "at::TensorOptions().device(at::kCPU)";

    std::vector<std::pair<std::string, std::string>> aliases;
    const std::string strippedReference = stripImports(source.reference, aliases);
    std::string aliasList, dtypeNames;
    for (const auto& [alias, target] : aliases)
        aliasList += (aliasList.empty() ? "" : ", ") + std::string("{") + cppStringLiteral(alias) +
                     ", " + cppStringLiteral(target) + "}";
    std::vector<std::string> allowed;
    for (const std::string& op : referenceAllowedOperators())
        allowed.push_back(cppCharLiteral(op));
    for (const auto& info : allDTypes())
        dtypeNames += (dtypeNames.empty() ? "" : ", ") + std::string("{") +
                      cppCharLiteral(std::string(info.torchName)) +
                      ", at::ScalarType::" + std::string(info.torchCpp) + "}";

    std::string kernelModules;
    for (const auto& [path, text] : source.kernelModules)
        kernelModules += "\n    {" + cppStringLiteral(path) + ", " + cppStringLiteral(text) + "},";
    const std::string cpp = fillTemplate(
        torchOpTemplate(),
        {
            {"HEADER", headerComment("//", facts)},
            {"QUALIFIED", facts.qualifiedName},
            {"RESOLVER", resolverText()},
            {"SUPPORT_INCLUDES", cppRuleSupportIncludes()},
            {"RULE_SUPPORT", cppRuleSupport()},
            {"DTYPE_SWITCHES", torchDTypeSwitches()},
            {"DTYPE_NAMES", dtypeNames},
            {"QUALIFIED_LIT", cppCharLiteral(facts.qualifiedName)},
            {"SCHEMA_LIT", cppCharLiteral(facts.torchSchema)},
            {"REFERENCE_FUNCTION_LIT", cppCharLiteral(spec.reference.function)},
            {"REFERENCE_LIT", cppStringLiteral(strippedReference)},
            {"REFERENCE_ALIASES", aliasList},
            {"REFERENCE_ALLOWED", wrappedList(allowed, "    ")},
            {"KERNEL_FILE_LIT", cppCharLiteral(spec.kernel.file)},
            {"KERNEL_FUNCTION_LIT", cppCharLiteral(spec.kernel.function)},
            {"KERNEL_MADE_BY_LIT", cppCharLiteral(spec.kernel.madeBy)},
            {"KERNEL_MADE_WITH_LIT", cppCharLiteral(spec.kernel.madeWithJson)},
            {"KERNEL_LIT", cppStringLiteral(source.kernel)},
            {"KERNEL_MODULES", kernelModules},
            {"NAMESPACE_LIT", cppCharLiteral(spec.ns)},
            {"NAME_LIT", cppCharLiteral(spec.name)},
            {"TENSOR_PARAMS", tensorParams},
            {"CHECK_INPUTS", checkInputs},
            {"RULE_PARAMS", ruleParams},
            {"CONSTRAINTS", cann::checks(spec, cann::Evaluated{false, false, false}, "        ")},
            {"RULE_NAMES", ruleNames},
            {"OUTPUT_TYPES", outputTypes},
            {"SET_KERNEL_ARGUMENTS", kernelArgumentsFunction(spec, names, ruleParams)},
            {"RETURN_TYPE", returnType},
            {"DISPATCHER_PARAMS", dispatcherParams},
            {"CONVERTED", converted},
            {"TENSOR_ARGS", tensorArgs},
            {"RULE_ARGS", ruleArgs},
            {"SIM_INPUTS", simInputs},
            {"SIM_OUTPUTS", simOutputs},
            {"SIM_WRITE_BACK", simWriteBack},
            {"RESULT", result},
            {"REFERENCE_ARGUMENTS", referenceArgs},
            {"OUTPUT_OPTIONS", outputOptions},
            {"SCHEMA_DEFINITION",
             readsTensors ? "kSchema"
                          : "torch::schema(kSchema, c10::AliasAnalysisKind::CONSERVATIVE)"},
            {"REFERENCE_KEY", readsTensors ? "CPU" : "CompositeExplicitAutograd"},
        });
    const std::string cmake =
        fillTemplate(torchCMakeListsTemplate(), {
                                                    {"HEADER", headerComment("#", facts)},
                                                    {"QUALIFIED", facts.qualifiedName},
                                                    {"PACKAGE", facts.packageName},
                                                    {"SOURCE", sourceFile},
                                                });
    return {{"torch/CMakeLists.txt", cmake}, {"torch/" + sourceFile, cpp}};
}

} // namespace ptowb::codegen
