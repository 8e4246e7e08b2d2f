// torch/: the op as a libtorch library that builds from the package alone, against any libtorch.
#include "codegen/cann_parts.h"
#include "codegen/cann_rule_emitter.h"
#include "codegen/cann_support.h"
#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "text/template_text.h"

namespace ptowb::codegen {

const char* referenceResolverText(); // core/torchscript/reference_resolver.h, embedded at build

namespace {

constexpr const char* kCMakeTemplate = R"CMAKE(@HEADER@
# The libtorch op library of @QUALIFIED@, from libtorch and the standard library alone. Build it
# against any libtorch: an installed one (Debian's), or the one a Python torch ships, named by
# its package folder (not torch.utils.cmake_prefix_path: with that, a libtorch installed on the
# system is found before the one beside the Python package):
#   cmake -S <package>/torch -B <build> \
#     -DCMAKE_PREFIX_PATH="$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')"
#   cmake --build <build>
# and load it with torch.ops.load_library("<build>/lib@PACKAGE@.so") or by linking it.
# -DPTOWB_DIR=<folder of ptowbConfig.cmake> adds PTOWB_BACKEND=sim (the kernel in ptowb's
# simulator); it needs the libtorch ptowb was built with.
cmake_minimum_required(VERSION 3.18)
project(@PACKAGE@ LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

find_package(Torch REQUIRED)
add_library(@PACKAGE@ SHARED @SOURCE@)
target_link_libraries(@PACKAGE@ PRIVATE ${TORCH_LIBRARIES})
separate_arguments(torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}") # the ABI libtorch was built with
target_compile_options(@PACKAGE@ PRIVATE ${torch_flags})

set(PTOWB_DIR "" CACHE PATH "folder holding ptowbConfig.cmake, for PTOWB_BACKEND=sim")
if(PTOWB_DIR)
  find_package(ptowb CONFIG REQUIRED HINTS "${PTOWB_DIR}")
  target_link_libraries(@PACKAGE@ PRIVATE ptowb::ptowb_sim)
  target_compile_definitions(@PACKAGE@ PRIVATE PTOWB_WITH_SIM)
endif()
)CMAKE";

constexpr const char* kSourceTemplate = R"CPP(@HEADER@
// The libtorch op library of @QUALIFIED@: the schema, a Meta kernel that evaluates the
// description's shape and dtype rules, and a CPU kernel that runs the embedded reference. It
// needs libtorch and the standard library only. PTOWB_BACKEND chooses the CPU implementation:
// ref (the reference, the default) or, when built with PTOWB_DIR, sim (the kernel file, run by
// the workbench's simulator).
#include <ATen/ATen.h>
#include <torch/library.h>
#include <torch/version.h>
@RESOLVER@
#ifdef PTOWB_WITH_SIM
#include "sim/simulator.h"
#endif

@SUPPORT_INCLUDES@
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>
@RULE_SUPPORT@
namespace {

const char* const kQualifiedName = @QUALIFIED_LIT@;
const char* const kSchema = @SCHEMA_LIT@;
const char* const kReferenceFunction = @REFERENCE_FUNCTION_LIT@;
// reference.py with its import lines blanked (line numbers kept), and what those lines bound:
// on CPU the deployed op computes exactly what the workbench checked.
const std::string kReferenceSource = @REFERENCE_LIT@;
const ptowb_reference::Aliases kReferenceAliases{@REFERENCE_ALIASES@};
// The operators the reference may call, sorted: the workbench's allow-list, as it checked the
// reference.
const char* const kReferenceAllowed[] = {
    @REFERENCE_ALLOWED@};
#ifdef PTOWB_WITH_SIM
// The kernel file, verbatim: what PTOWB_BACKEND=sim runs.
const char* const kKernelFile = @KERNEL_FILE_LIT@;
const char* const kKernelFunction = @KERNEL_FUNCTION_LIT@;
const std::string kKernelSource = @KERNEL_LIT@;
#endif

[[noreturn]] void fail(const std::string& message);
@DTYPE_SWITCHES@
#ifdef PTOWB_WITH_SIM
// A rule's value as the kernel worker takes it (op.json's kernel arguments).
std::string argumentJson(const ptowb_Rt::Bool& v) { return ptowb::sim::jsonText(v.value); }
std::string argumentJson(const ptowb_Rt::Int& v) { return ptowb::sim::jsonText(v.value); }
std::string argumentJson(const ptowb_Rt::Float& v) { return ptowb::sim::jsonText(v.value); }
std::string argumentJson(const ptowb_Rt::Str& v) { return ptowb::sim::jsonText(v.value); }
std::string argumentJson(const ptowb_Rt::Shape& v)
{
    std::vector<std::int64_t> items;
    for (const auto& item : v.items) items.push_back(item.value);
    return ptowb::sim::jsonText(items);
}
std::string argumentJson(const ptowb_Rt::Floats& v)
{
    std::vector<double> items;
    for (const auto& item : v.items) items.push_back(item.value);
    return ptowb::sim::jsonText(items);
}
std::string argumentJson(const ptowb_Rt::DT& v) { return ptowb::sim::dtypeJsonText(dtypeName(v.value)); }

// What an output holds before the kernel runs: op.json's init, else NaN (zero for integers).
at::Tensor initialOutput(const std::vector<std::int64_t>& shape, at::ScalarType dtype, double init)
{
    const bool floating = at::isFloatingType(dtype);
    return at::full(shape, std::isnan(init) && !floating ? 0.0 : init, at::TensorOptions().dtype(dtype));
}
#endif

[[noreturn]] void fail(const std::string& message) { TORCH_CHECK(false, kQualifiedName, ": ", message); }

// The constraint checks end in `return failure(message);`.
[[noreturn]] void failure(const std::string& message) { fail(message); }

// Under torch.compile(dynamic=True) a fake tensor's sizes are symbolic; the rules work on
// int64, so each symbolic size is specialized to its value (a guard: another size recompiles).
std::vector<std::int64_t> sizesOf(const at::Tensor& t)
{
#if TORCH_VERSION_MAJOR >= 2
    std::vector<std::int64_t> sizes;
    for (const c10::SymInt& d : t.sym_sizes()) sizes.push_back(d.guard_int(__FILE__, __LINE__));
    return sizes;
#else
    return t.sizes().vec();
#endif
}

ptowb_Rt::Tensor ruleTensor(const at::Tensor& t)
{
    ptowb_Rt::Tensor r;
    r.dtype = fromTorch(t.scalar_type());
    r.shape = ptowb_Rt::fromGeDims(sizesOf(t));
    return r;
}

void checkInput(const char* name, const at::Tensor& tensor, std::initializer_list<at::ScalarType> dtypes, std::int64_t rank)
{
    bool allowed = false;
    std::string names;
    for (at::ScalarType d : dtypes) {
        allowed = allowed || tensor.scalar_type() == d;
        names += std::string(names.empty() ? "" : ", ") + c10::toString(d);
    }
    if (!allowed)
        fail(std::string("input '") + name + "' has dtype " + c10::toString(tensor.scalar_type()) + "; the op accepts " + names);
    if (rank >= 0 && tensor.dim() != rank)
        fail(std::string("input '") + name + "' has rank " + std::to_string(tensor.dim()) + "; the op needs rank " + std::to_string(rank));
}

struct OutputType
{
    std::vector<std::int64_t> shape;
    at::ScalarType dtype;
};

OutputType outputType(const char* name, const ptowb_Rt::Shape& shape, const ptowb_Rt::DT& dtype)
{
    const std::vector<std::int64_t> dims = ptowb_Rt::toGeDims(shape);
    for (std::int64_t d : dims)
        if (d < 0) fail(std::string("the shape rule of output '") + name + "' gives an unknown or negative size");
    if (!dtype.known) fail(std::string("the dtype rule of output '") + name + "' gives no dtype");
    return {dims, toTorch(dtype.value)};
}

const char* backendName()
{
    const char* name = std::getenv("PTOWB_BACKEND");
    return name && *name ? name : "ref";
}

std::shared_ptr<torch::jit::CompilationUnit> referenceUnit()
{
    static const auto unit = [] {
        auto dtypes = std::make_shared<ptowb_reference::DTypeNames>(ptowb_reference::DTypeNames{@DTYPE_NAMES@});
        return ptowb_reference::compile(kReferenceSource, kReferenceAliases, dtypes, [](const std::string& kind, int line, int col) {
            const bool allowed = std::binary_search(std::begin(kReferenceAllowed), std::end(kReferenceAllowed), kind,
                                                    [](const auto& a, const auto& b) { return std::string_view(a) < std::string_view(b); });
            if (!allowed)
                fail("reference.py:" + std::to_string(line) + ":" + std::to_string(col) + ": the reference calls " + kind +
                     ", which is not among the operators a reference may use");
        });
    }();
    return unit;
}

std::vector<at::Tensor> checkedOutputs(const c10::IValue& result, const std::vector<OutputType>& expected)
{
    std::vector<at::Tensor> tensors;
    if (result.isTensor()) tensors.push_back(result.toTensor());
    else if (result.isTuple())
        for (const auto& element : result.toTupleRef().elements()) tensors.push_back(element.toTensor());
    if (tensors.size() != expected.size())
        fail("the reference returned " + std::to_string(tensors.size()) + " tensors; the op has " + std::to_string(expected.size()) + " outputs");
    for (std::size_t k = 0; k < tensors.size(); ++k)
        if (tensors[k].sizes().vec() != expected[k].shape || tensors[k].scalar_type() != expected[k].dtype)
            fail("the reference gave output " + std::to_string(k) + " shape " + c10::str(tensors[k].sizes()) + " " +
                 c10::toString(tensors[k].scalar_type()) + "; the rules give " + c10::str(at::IntArrayRef(expected[k].shape)) + " " +
                 c10::toString(expected[k].dtype));
    return tensors;
}

@GENERATED@
// The op is registered when this library loads, unless it exists already because the package's
// Python module was imported first: that definition then stands and this library adds nothing,
// where a second definition would abort the process.
const bool kRegistered = [] {
    if (c10::Dispatcher::singleton().findSchema(c10::OperatorName(kQualifiedName, "")).has_value()) return false;
    static torch::Library definition(torch::Library::FRAGMENT, @NAMESPACE_LIT@, c10::nullopt, __FILE__, __LINE__);
    definition.def(kSchema);
    static torch::Library cpu(torch::Library::IMPL, @NAMESPACE_LIT@, c10::DispatchKey::CPU, __FILE__, __LINE__);
    cpu.impl(@NAME_LIT@, &cpuKernel);
    static torch::Library meta(torch::Library::IMPL, @NAMESPACE_LIT@, c10::DispatchKey::Meta, __FILE__, __LINE__);
    meta.impl(@NAME_LIT@, &metaKernel);
    // Meta tensors pass the autograd key first; this op has no gradient, so go straight on.
    static torch::Library autogradMeta(torch::Library::IMPL, @NAMESPACE_LIT@, c10::DispatchKey::AutogradMeta, __FILE__, __LINE__);
    autogradMeta.impl(@NAME_LIT@, torch::CppFunction::makeFallthrough());
    return true;
}();

} // namespace
)CPP";

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
        kSourceTemplate, {
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
        fillTemplate(kCMakeTemplate, {
                                         {"HEADER", headerComment("#", facts)},
                                         {"QUALIFIED", facts.qualifiedName},
                                         {"PACKAGE", facts.packageName},
                                         {"SOURCE", sourceFile},
                                     });
    return {{"torch/CMakeLists.txt", cmake}, {"torch/" + sourceFile, cpp}};
}

} // namespace ptowb::codegen
