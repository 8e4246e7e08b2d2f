#include "codegen/glue.h"
#include "codegen/glue_facts.h"
#include "codegen/template_text.h"

namespace ptowb::codegen {

namespace {

constexpr const char* kCMakeTemplate = R"CMAKE(@HEADER@
# The libtorch op library of @QUALIFIED@. Build it with
#   cmake -S <package>/torch -B <build> && cmake --build <build>
# and load it with torch.ops.load_library("<build>/lib@PACKAGE@.so") or by linking it.
cmake_minimum_required(VERSION 3.18)
project(@PACKAGE@ LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

set(PTOWB_DIR "@PTOWB_DIR@" CACHE PATH "folder holding ptowbConfig.cmake (a ptowb build or install)")
find_package(ptowb CONFIG REQUIRED HINTS "${PTOWB_DIR}")

add_library(@PACKAGE@ SHARED @SOURCE@)
target_link_libraries(@PACKAGE@ PRIVATE ptowb::ptowb_sim)
)CMAKE";

constexpr const char* kSourceTemplate = R"CPP(@HEADER@
// The libtorch op library of @QUALIFIED@: the schema, a Meta kernel that evaluates the
// description's shape and dtype rules, and a CPU kernel that runs the embedded reference.
// PTOWB_BACKEND chooses the CPU implementation: ref (the reference, the default) or sim (the
// kernel file, run by the workbench's simulator).
#include "rules/emitted_support.h"
#include "sim/simulator.h"
#include "torchscript/torchscript.h"

#include <torch/library.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

using ptowb::torchscript::ptDType;
using ptowb::torchscript::ptNumel;
using ptowb::torchscript::ptRank;
using ptowb::torchscript::ptShape;

const char* const kQualifiedName = @QUALIFIED_LIT@;
const char* const kSchema = @SCHEMA_LIT@;
const char* const kReferenceFunction = @REFERENCE_FUNCTION_LIT@;
// reference.py, verbatim: on CPU the deployed op computes exactly what the workbench checked.
const std::string kReferenceSource = @REFERENCE_LIT@;
// The kernel file, verbatim: what PTOWB_BACKEND=sim runs.
const char* const kKernelFile = @KERNEL_FILE_LIT@;
const char* const kKernelFunction = @KERNEL_FUNCTION_LIT@;
const std::string kKernelSource = @KERNEL_LIT@;

[[noreturn]] void fail(const std::string& message) { TORCH_CHECK(false, kQualifiedName, ": ", message); }

template <class Compute> auto rule(const std::string& what, Compute compute)
{
    try {
        return compute();
    } catch (const ptowb::emitted::RuleError& error) {
        fail(what + ": " + error.what());
    }
}

void checkInput(const char* name, const at::Tensor& tensor, std::initializer_list<ptowb::DType> dtypes, int rank)
{
    const auto dtype = ptowb::torchscript::fromTorch(tensor.scalar_type());
    bool allowed = false;
    std::string names;
    for (ptowb::DType d : dtypes) {
        allowed = allowed || (dtype && *dtype == d);
        names += std::string(names.empty() ? "" : ", ") + std::string(ptowb::dtypeName(d));
    }
    if (!allowed)
        fail(std::string("input '") + name + "' has dtype " + c10::toString(tensor.scalar_type()) + "; the op accepts " + names);
    if (rank >= 0 && tensor.dim() != rank)
        fail(std::string("input '") + name + "' has rank " + std::to_string(tensor.dim()) + "; the op needs rank " + std::to_string(rank));
}

struct OutputType
{
    std::vector<std::int64_t> shape;
    ptowb::DType dtype;
};

const char* backendName()
{
    const char* name = std::getenv("PTOWB_BACKEND");
    return name && *name ? name : "ref";
}

std::vector<at::Tensor> checkedOutputs(const c10::IValue& result, const std::vector<OutputType>& expected)
{
    std::vector<at::Tensor> tensors;
    if (result.isTensor()) tensors.push_back(result.toTensor());
    else if (result.isTuple())
        for (const auto& element : result.toTupleRef().elements()) tensors.push_back(element.toTensor());
    if (tensors.size() != expected.size())
        fail("the reference returned " + std::to_string(tensors.size()) + " tensors; the op has " + std::to_string(expected.size()) + " outputs");
    for (std::size_t k = 0; k < tensors.size(); ++k) {
        const auto dtype = ptowb::torchscript::fromTorch(tensors[k].scalar_type());
        if (tensors[k].sizes().vec() != expected[k].shape || !dtype || *dtype != expected[k].dtype)
            fail("the reference gave output " + std::to_string(k) + " shape " + c10::str(tensors[k].sizes()) + " " +
                 c10::toString(tensors[k].scalar_type()) + "; the rules give " + c10::str(at::IntArrayRef(expected[k].shape)) + " " +
                 std::string(ptowb::dtypeName(expected[k].dtype)));
    }
    return tensors;
}

@GENERATED@

// The op is registered when this library loads, unless it exists already because the package's
// Python module was imported first: that definition then stands and this library adds nothing,
// where a second definition would abort the process.
const bool kRegistered = [] {
    if (c10::Dispatcher::singleton().findSchema(c10::OperatorName(kQualifiedName, "")).has_value()) return false;
    static torch::Library definition(torch::Library::FRAGMENT, @NAMESPACE_LIT@, {}, __FILE__, __LINE__);
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

// How a dispatcher argument of this type becomes the value the rules and the reference use.
std::string fromDispatcher(ParamType type, const std::string& name)
{
    switch (type) {
    case ParamType::Str: return "std::string(" + name + ")";
    case ParamType::IntList: return name + ".vec()";
    case ParamType::FloatList: return "std::vector<double>(" + name + ".begin(), " + name + ".end())";
    default: return name;
    }
}

} // namespace

std::vector<GeneratedFile> generateTorchLibrary(const GlueSource& source)
{
    const OpSpec& spec = source.spec;
    const GlueFacts facts = glueFacts(source);
    const CppNames names = cppNames(spec);
    const std::string sourceFile = spec.name + "_op.cpp";

    std::string params, args, dispatcherParams, converted, referenceArgs;
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        params += (params.empty() ? "" : ", ") + std::string("const at::Tensor& ") + names.inputs[k];
        args += (args.empty() ? "" : ", ") + names.inputs[k];
        dispatcherParams += (dispatcherParams.empty() ? "" : ", ") + std::string("const at::Tensor& ") + names.inputs[k];
        referenceArgs += "        {" + cppStringLiteral(spec.inputs[k].name) + ", " + names.inputs[k] + "},\n";
    }
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
        const ParamTypeInfo& info = paramTypeInfo(spec.params[k].type);
        const std::string& n = names.params[k];
        params += (params.empty() ? "" : ", ") + std::string("const ") + std::string(info.cppValue) + "& " + n;
        args += (args.empty() ? "" : ", ") + n;
        dispatcherParams += (dispatcherParams.empty() ? "" : ", ") + std::string(info.torchCppArg) + " " + n + "_arg";
        converted += "    const " + std::string(info.cppValue) + " " + n + " = " + fromDispatcher(spec.params[k].type, n + "_arg") + ";\n";
        referenceArgs += "        {" + cppStringLiteral(spec.params[k].name) + ", c10::IValue(" + n + ")},\n";
    }
    const bool single = spec.outputs.size() == 1;
    std::string returnType = "at::Tensor";
    if (!single) {
        returnType = "std::tuple<";
        for (std::size_t k = 0; k < spec.outputs.size(); ++k) returnType += k ? ", at::Tensor" : "at::Tensor";
        returnType += ">";
    }
    auto returnTensors = [&](const std::string& vector) {
        if (single) return "    return " + vector + "[0];\n";
        std::string out = "    return {";
        for (std::size_t k = 0; k < spec.outputs.size(); ++k) out += (k ? ", " : "") + vector + "[" + std::to_string(k) + "]";
        return out + "};\n";
    };

    std::string gen;
    gen += "void check(" + params + ")\n{\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
        const InputSpec& in = spec.inputs[k];
        std::string dtypes;
        for (DType d : in.dtypes) dtypes += (dtypes.empty() ? "" : ", ") + std::string("ptowb::DType::") + std::string(dtypeInfo(d).cppEnum);
        gen += "    checkInput(" + cppCharLiteral(in.name) + ", " + names.inputs[k] + ", {" + dtypes + "}, " +
               std::to_string(in.rank.value_or(-1)) + ");\n";
    }
    for (const auto& c : spec.constraints) {
        gen += "    if (!rule(" + cppStringLiteral("constraint " + c.check) + ", [&] { return " + emitCpp(c.rule->root(), names) + "; }))\n";
        gen += "        fail(" + cppStringLiteral(c.message.empty() ? "constraint " + c.check + " does not hold" : c.message) + ");\n";
    }
    if (args.empty()) gen += "    (void)0;\n";
    gen += "}\n\n";
    gen += "std::vector<OutputType> outputTypes(" + params + ")\n{\n    return {\n";
    for (const auto& out : spec.outputs)
        gen += "        {rule(" + cppStringLiteral("shape of output '" + out.name + "'") + ", [&] { return " + emitCpp(out.shape->root(), names) +
               "; }),\n         rule(" + cppStringLiteral("dtype of output '" + out.name + "'") + ", [&] { return " +
               emitCpp(out.dtype->root(), names) + "; })},\n";
    gen += "    };\n}\n\n";

    gen += returnType + " cpuKernel(" + dispatcherParams + ")\n{\n" + converted;
    gen += "    check(" + args + ");\n";
    gen += "    const std::vector<OutputType> expected = outputTypes(" + args + ");\n";
    gen += "    if (std::string(backendName()) == \"sim\") {\n";
    gen += "        ptowb::sim::KernelArguments arguments;\n";
    for (std::size_t k = 0; k < spec.inputs.size(); ++k)
        gen += "        arguments.inputs[" + cppCharLiteral(spec.inputs[k].name) + "] = " + names.inputs[k] + ".contiguous();\n";
    for (std::size_t k = 0; k < spec.params.size(); ++k)
        gen += "        arguments.param(" + cppCharLiteral(spec.params[k].name) + ", " + names.params[k] + ");\n";
    gen += "        std::vector<at::Tensor> tensors;\n";
    gen += "        for (const OutputType& type : expected) // NaN where the kernel writes nothing\n";
    gen += "            tensors.push_back(at::full(type.shape, NAN, at::TensorOptions().dtype(ptowb::torchscript::toTorch(type.dtype))));\n";
    for (std::size_t k = 0; k < spec.outputs.size(); ++k)
        gen += "        arguments.outputs[" + cppCharLiteral(spec.outputs[k].name) + "] = tensors[" + std::to_string(k) + "];\n";
    gen += "        try {\n";
    gen += "            ptowb::sim::simulateOnTensors(kKernelSource, kKernelFile, kKernelFunction, arguments);\n";
    gen += "        } catch (const std::exception& error) {\n";
    gen += "            fail(std::string(\"the kernel failed in the simulator:\\n\") + error.what());\n";
    gen += "        }\n";
    gen += returnTensors("tensors").insert(0, "    ");
    gen += "    }\n";
    gen += "    if (std::string(backendName()) != \"ref\")\n";
    gen += "        fail(std::string(\"PTOWB_BACKEND=\") + backendName() + \" is not a backend of this library; it provides ref (the reference) and sim (the kernel in the simulator)\");\n";
    gen += "    static const auto unit = ptowb::torchscript::compile(kReferenceSource);\n";
    gen += "    const c10::IValue result = ptowb::torchscript::callByName(unit->get_function(kReferenceFunction), {\n" + referenceArgs + "    });\n";
    gen += "    const std::vector<at::Tensor> tensors = checkedOutputs(result, expected);\n";
    gen += returnTensors("tensors");
    gen += "}\n\n";

    gen += returnType + " metaKernel(" + dispatcherParams + ")\n{\n" + converted;
    gen += "    check(" + args + ");\n";
    const std::string options = spec.inputs.empty() ? "at::TensorOptions().device(at::kMeta)" : names.inputs[0] + ".options()";
    gen += "    std::vector<at::Tensor> tensors;\n";
    gen += "    for (const OutputType& type : outputTypes(" + args + "))\n";
    gen += "        tensors.push_back(at::empty(type.shape, " + options + ".dtype(ptowb::torchscript::toTorch(type.dtype))));\n";
    gen += returnTensors("tensors");
    gen += "}\n";

    const std::string cpp = fillTemplate(kSourceTemplate, {
        {"HEADER", headerComment("//", facts)},
        {"QUALIFIED", facts.qualifiedName},
        {"QUALIFIED_LIT", cppCharLiteral(facts.qualifiedName)},
        {"SCHEMA_LIT", cppCharLiteral(facts.torchSchema)},
        {"REFERENCE_FUNCTION_LIT", cppCharLiteral(spec.reference.function)},
        {"REFERENCE_LIT", cppCharLiteral(source.reference)},
        {"KERNEL_FILE_LIT", cppCharLiteral(spec.kernel.file)},
        {"KERNEL_FUNCTION_LIT", cppCharLiteral(spec.kernel.function)},
        {"KERNEL_LIT", cppCharLiteral(source.kernel)},
        {"NAMESPACE_LIT", cppCharLiteral(spec.ns)},
        {"NAME_LIT", cppCharLiteral(spec.name)},
        {"GENERATED", gen},
    });
    const std::string cmake = fillTemplate(kCMakeTemplate, {
        {"HEADER", headerComment("#", facts)},
        {"QUALIFIED", facts.qualifiedName},
        {"PACKAGE", facts.packageName},
        {"PTOWB_DIR", source.ptowbCMakeDir},
        {"SOURCE", sourceFile},
    });
    return {{"torch/CMakeLists.txt", cmake}, {"torch/" + sourceFile, cpp}};
}

} // namespace ptowb::codegen
