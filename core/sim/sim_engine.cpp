// The simulator behind ReferenceEngine::simulate: binds one case to the kernel's parameters,
// runs it, and hands the outputs back as workbench tensors.
#include "sim/sim_engine.h"

#include "kernel/kernel_check.h"
#include "kernel/kernel_parser.h"
#include "sim/simulator.h"
#include "spec/inference.h"
#include "torchscript/torchscript.h"

#include <limits>

namespace ptowb::sim {

namespace {

Value paramValue(const rules::Value& v)
{
    switch (v.type) {
    case rules::Type::Bool: return Value::ofBool(v.asBool());
    case rules::Type::Int: return Value::ofInt(v.i);
    case rules::Type::Float: return Value::ofFloat(v.f);
    case rules::Type::Str: return Value::ofStr(v.s);
    case rules::Type::Shape: {
        std::vector<Value> items;
        for (auto i : v.ints) items.push_back(Value::ofInt(i));
        return Value::ofTuple(std::move(items));
    }
    case rules::Type::FloatList: {
        std::vector<Value> items;
        for (auto f : v.floats) items.push_back(Value::ofFloat(f));
        return Value::ofTuple(std::move(items));
    }
    default: return Value::none();
    }
}

Diagnostic error(const std::string& file, int line, std::string code, std::string message)
{
    return kernel::diagnosticAt(file, {line, 1}, std::move(code), std::move(message));
}

} // namespace

SimOutcome simulate(const OpSpec& spec, const std::string& kernelSource, const std::string& file, std::span<const Tensor> inputs,
                    std::span<const rules::Value> params, const SimRunOptions& options)
{
    SimOutcome outcome;
    const kernel::Module module = kernel::parseKernel(kernelSource, file, outcome.diagnostics);
    if (hasErrors(outcome.diagnostics)) return outcome;
    const kernel::CheckedKernel checked = kernel::checkKernel(module, spec, file, outcome.diagnostics);
    if (hasErrors(outcome.diagnostics)) return outcome;
    if (!checked.function) {
        outcome.diagnostics.push_back(error(file, 1, "kernel.missing-function", "the kernel file defines no function '" + spec.kernel.function + "'"));
        return outcome;
    }
    std::vector<rules::TensorInfo> infos;
    for (const Tensor& t : inputs) infos.push_back({t.shape(), t.dtype()});
    auto inferred = inferOutputs(spec, infos, params);
    if (auto* e = std::get_if<InferenceError>(&inferred)) {
        outcome.diagnostics.push_back(error(file, checked.function->pos.line, "sim.inputs", "the case does not fit the op: " + e->message));
        return outcome;
    }
    // Outputs start as NaN (or zero for integers), so elements the kernel never writes show up.
    std::vector<at::Tensor> outputs;
    for (const auto& o : std::get<std::vector<InferredOutput>>(inferred)) {
        const auto type = torchscript::toTorch(o.dtype);
        outputs.push_back(isFloating(o.dtype) ? at::full(o.shape, std::numeric_limits<double>::quiet_NaN(), at::TensorOptions().dtype(type))
                                              : at::zeros(o.shape, at::TensorOptions().dtype(type)));
    }
    std::map<std::string, Value> arguments;
    for (std::size_t k = 0; k < checked.function->params.size(); ++k) {
        const kernel::KernelBinding& b = checked.bindings[k];
        const std::string& name = checked.function->params[k].name;
        if (b.role == kernel::KernelBinding::Role::Input) arguments[name] = Value::ofTensor(torchscript::toAten(inputs[std::size_t(b.index)]));
        if (b.role == kernel::KernelBinding::Role::Output) arguments[name] = Value::ofTensor(outputs[std::size_t(b.index)]);
        if (b.role == kernel::KernelBinding::Role::Param) arguments[name] = paramValue(params[std::size_t(b.index)]);
    }
    std::optional<Platform> platform;
    if (!options.platformFile.empty()) {
        std::string problem;
        platform = loadPlatform(options.platformFile, problem);
        if (!problem.empty()) {
            outcome.diagnostics.push_back(error(options.platformFile, 1, "sim.platform", problem));
            return outcome;
        }
    }
    RunOptions run;
    run.capture = options.capture;
    run.platform = platform ? &*platform : nullptr;
    RunResult result = runKernel(module, *checked.function, arguments, file, run);
    outcome.diagnostics.insert(outcome.diagnostics.end(), result.diagnostics.begin(), result.diagnostics.end());
    outcome.cost = std::move(result.cost);
    for (const Capture& c : result.captures)
        if (auto t = torchscript::fromAten(c.value)) outcome.captures.push_back({c.line, c.name, std::move(*t)});
    if (hasErrors(outcome.diagnostics)) return outcome;
    for (const at::Tensor& t : outputs) outcome.outputs.push_back(*torchscript::fromAten(t));
    return outcome;
}

} // namespace ptowb::sim
