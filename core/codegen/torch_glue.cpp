// torch/: the op as a libtorch library that builds from the package alone, against any libtorch.
#include "codegen/cann_parts.h"
#include "codegen/cann_rule_emitter.h"
#include "codegen/cann_support.h"
#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/templates.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

namespace ptowb::codegen {

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

// The same value as the ptowb_Rt value of the parameter's rule type.
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

} // namespace

std::vector<GeneratedFile> generateTorchLibrary(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const CppNames names = cppNames(spec);
    const std::string sourceFile = spec.name + "_op.cpp";

    // Dispatcher arguments -> C++ values (for the reference and the simulator) -> rule values.
    std::string dispatcherParams, converted, ruleArgs, ruleParams, ruleNames, referenceArgs;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        dispatcherParams += (dispatcherParams.empty() ? "" : ", ") +
                            std::string("const at::Tensor& ") + names.inputs[k];
        referenceArgs +=
            "        {" + cppStringLiteral(spec.inputs[k].name) + ", " + names.inputs[k] + "},\n";
        ruleArgs +=
            (ruleArgs.empty() ? "" : ", ") + std::string("ruleTensor(") + names.inputs[k] + ")";
        ruleParams += (ruleParams.empty() ? "" : ", ") + std::string("const ptowb_Rt::Tensor& ") +
                      names.inputs[k];
        ruleNames += (ruleNames.empty() ? "" : ", ") + names.inputs[k];
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
        ruleArgs += (ruleArgs.empty() ? "" : ", ") + ruleValue(spec.params[k].type, n);
        ruleParams += (ruleParams.empty() ? "" : ", ") + std::string("const ") +
                      cannRuleType(ruleTypeOf(spec.params[k].type)) + "& " + n;
        ruleNames += (ruleNames.empty() ? "" : ", ") + n;
    }
    const bool single = spec.outputs.size() == 1;
    std::string returnType = "at::Tensor";
    if (!single) {
        returnType = "std::tuple<";
        for (std::size_t k = 0; k < spec.outputs.size(); ++k)
            returnType += k ? ", at::Tensor" : "at::Tensor";
        returnType += ">";
    }
    auto returnTensors = [&](const std::string& vector) {
        if (single) return "    return " + vector + "[0];\n";
        std::string out = "    return {";
        for (std::size_t k = 0; k < spec.outputs.size(); ++k)
            out += (k ? ", " : "") + vector + "[" + std::to_string(k) + "]";
        return out + "};\n";
    };

    std::string gen;
    // Dtypes and ranks of the tensors, then the constraints and the output rules on rule values.
    std::string tensorParams;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        tensorParams += (tensorParams.empty() ? "" : ", ") + std::string("const at::Tensor& ") +
                        names.inputs[k];
    gen += "void checkTensors(" + tensorParams + ")\n{\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes)
            dtypes += (dtypes.empty() ? "" : ", ") + std::string("at::ScalarType::") +
                      std::string(dtypeInfo(d).torchCpp);
        gen += "    checkInput(" + cppCharLiteral(in.name) + ", " + names.inputs[k] + ", {" +
               dtypes + "}, " + std::to_string(in.rank.value_or(-1)) + ");\n";
    }
    gen += "}\n\n";
    gen += "void checkConstraints(" + ruleParams + ")\n{\n    try {\n";
    gen += cann::checks(spec, cann::Evaluated{false, false, false}, "        ");
    gen += "    } catch (const ptowb_Rt::RuleError& error) {\n        fail(error.what());\n    "
           "}\n}\n\n";
    gen += "std::vector<OutputType> outputTypes(" + ruleParams + ")\n{\n    checkConstraints(" +
           ruleNames + ");\n    try {\n";
    gen += "        return {\n";
    for (const auto& out : spec.outputs)
        gen += "            outputType(" + cppCharLiteral(out.name) + ", " +
               emitCannRule(out.shape->root(), names) + ",\n                       " +
               emitCannRule(out.dtype->root(), names) + "),\n";
    gen += "        };\n    } catch (const ptowb_Rt::RuleError& error) {\n        "
           "fail(error.what());\n    }\n}\n\n";

    std::string tensorArgs;
    for (const auto& n : names.inputs)
        tensorArgs += (tensorArgs.empty() ? "" : ", ") + n;
    const std::string prologue = converted + "    checkTensors(" + tensorArgs + ");\n" +
                                 "    const std::vector<OutputType> expected = outputTypes(" +
                                 ruleArgs + ");\n";

    if (!spec.kernelArguments.empty()) {
        gen += "#ifdef PTOWB_WITH_SIM\n";
        gen += "void setKernelArguments(ptowb::sim::KernelArguments& arguments, " + ruleParams +
               ")\n{\n    try {\n";
        for (const KernelArgumentSpec& a : spec.kernelArguments) {
            const std::string slot =
                "        arguments.kernelArguments[" + cppCharLiteral(a.name) + "]";
            if (a.className.empty()) {
                gen += slot + ".valueJson = argumentJson(" +
                       emitCannRule(a.fields.at(0).rule->root(), names) + ");\n";
                continue;
            }
            gen += slot + ".className = " + cppCharLiteral(a.className) + ";\n";
            for (const auto& f : a.fields)
                gen += slot + ".fieldsJson[" + cppCharLiteral(f.name) + "] = argumentJson(" +
                       emitCannRule(f.rule->root(), names) + ");\n";
        }
        gen +=
            "    } catch (const ptowb_Rt::RuleError& error) {\n        fail(std::string(\"a kernel "
            "argument: \") + error.what());\n    }\n}\n#endif\n\n";
    }
    gen += returnType + " cpuKernel(" + dispatcherParams + ")\n{\n" + prologue;
    gen += "#ifdef PTOWB_WITH_SIM\n";
    gen += "    if (std::string(backendName()) == \"sim\") {\n";
    gen += "        ptowb::sim::KernelArguments arguments;\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        gen += "        arguments.inputs[" + cppCharLiteral(spec.inputs[k].name) +
               "] = " + names.inputs[k] + ".contiguous();\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        gen += "        arguments.param(" + cppCharLiteral(spec.params[k].name) + ", " +
               names.params[k] + ");\n";
    if (!spec.kernelArguments.empty())
        gen += "        setKernelArguments(arguments, " + ruleArgs + ");\n";
    gen += "        std::vector<at::Tensor> tensors;\n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k) {
        const auto& init = spec.outputs[k].init;
        gen += "        tensors.push_back(initialOutput(expected[" + std::to_string(k) +
               "].shape, expected[" + std::to_string(k) + "].dtype, " +
               (init ? cppLiteral(rules::Value::ofFloat(*init)) : std::string("NAN")) + "));\n";
    }
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        gen += "        arguments.outputs[" + cppCharLiteral(spec.outputs[k].name) +
               "] = tensors[" + std::to_string(k) + "];\n";
    for (std::size_t k : spec.mutatedInputs())
        gen +=
            "        arguments.mutated.push_back(" + cppCharLiteral(spec.inputs[k].name) + ");\n";
    gen += "        try {\n";
    gen += "            ptowb::sim::simulateOnTensors(kKernelSource, kKernelFile, kKernelFunction, "
           "arguments);\n";
    gen += "        } catch (const std::exception& error) {\n";
    gen += "            fail(std::string(\"the kernel failed in the simulator:\\n\") + "
           "error.what());\n";
    gen += "        }\n";
    for (std::size_t k : spec.mutatedInputs()) // the kernel wrote it in place: so does the op
        gen += "        " + names.inputs[k] + ".copy_(arguments.inputs[" +
               cppCharLiteral(spec.inputs[k].name) + "]);\n";
    gen += returnTensors("tensors").insert(0, "    ");
    gen += "    }\n";
    gen += "    if (std::string(backendName()) != \"ref\")\n";
    gen +=
        "        fail(std::string(\"PTOWB_BACKEND=\") + backendName() + \" is not a backend of "
        "this library; it provides ref (the reference) and sim (the kernel in the simulator)\");\n";
    gen += "#else\n";
    gen += "    if (std::string(backendName()) != \"ref\")\n";
    gen += "        fail(std::string(\"PTOWB_BACKEND=\") + backendName() + \" is not a backend of "
           "this library; it provides ref (the reference); build it with -DPTOWB_DIR for sim\");\n";
    gen += "#endif\n";
    gen += "    const c10::IValue result = "
           "ptowb_reference::callByName(referenceUnit()->get_function(kReferenceFunction), {\n" +
           referenceArgs + "    });\n";
    gen += "    const std::vector<at::Tensor> tensors = checkedOutputs(result, expected);\n";
    gen += returnTensors("tensors");
    gen += "}\n\n";

    gen += returnType + " metaKernel(" + dispatcherParams + ")\n{\n" + prologue;
    const std::string options = spec.inputs.empty() ? "at::TensorOptions().device(at::kMeta)"
                                                    : names.inputs[0] + ".options()";
    gen += "    std::vector<at::Tensor> tensors;\n";
    gen += "    for (const OutputType& type : expected)\n";
    gen += "        tensors.push_back(at::empty(type.shape, " + options + ".dtype(type.dtype)));\n";
    gen += returnTensors("tensors");
    gen += "}\n\n";

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

    const std::string cpp = fillTemplate(
        torchOpTemplate(), {
                               {"HEADER", headerComment("//", facts)},
                               {"QUALIFIED", facts.qualifiedName},
                               {"RESOLVER", resolverText()},
                               {"SUPPORT_INCLUDES", cannSupportIncludes()},
                               {"RULE_SUPPORT", cannRuleSupport()},
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
                               {"KERNEL_LIT", cppStringLiteral(source.kernel)},
                               {"NAMESPACE_LIT", cppCharLiteral(spec.ns)},
                               {"NAME_LIT", cppCharLiteral(spec.name)},
                               {"GENERATED", gen},
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
