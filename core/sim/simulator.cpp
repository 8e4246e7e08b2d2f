#include "sim/simulator.h"

#include "kernel/kernel_parser.h"
#include "sim/interpreter.h"

namespace ptowb::sim {

Value Value::ofBool(bool v) { Value x; x.kind = Kind::Bool; x.i = v; return x; }
Value Value::ofInt(std::int64_t v) { Value x; x.kind = Kind::Int; x.i = v; return x; }
Value Value::ofFloat(double v) { Value x; x.kind = Kind::Float; x.f = v; return x; }
Value Value::ofStr(std::string v) { Value x; x.kind = Kind::Str; x.s = std::move(v); return x; }
Value Value::ofDType(DType v) { Value x; x.kind = Kind::DType; x.dtype = v; return x; }
Value Value::ofTensor(at::Tensor v) { Value x; x.kind = Kind::Tensor; x.tensor = std::move(v); return x; }
Value Value::ofTuple(std::vector<Value> v) { Value x; x.kind = Kind::Tuple; x.items = std::move(v); return x; }

void simulateOnTensors(const std::string& kernelSource, const std::string& file, const std::string& function,
                       const std::map<std::string, Value>& arguments)
{
    Diagnostics diagnostics;
    const kernel::Module module = kernel::parseKernel(kernelSource, file, diagnostics);
    const kernel::FunctionDef* entry = nullptr;
    for (const auto& f : module.functions)
        if (f.name == function) entry = &f;
    if (!hasErrors(diagnostics) && entry) diagnostics = runKernel(module, *entry, arguments, file, {}).diagnostics;
    else if (!entry && !hasErrors(diagnostics)) throw std::runtime_error(file + " defines no function '" + function + "'");
    std::string message;
    for (const Diagnostic& d : diagnostics)
        if (d.isError()) message += (message.empty() ? "" : "\n") + formatDiagnostic(d);
    if (!message.empty()) throw std::runtime_error(message);
}

RunResult runKernel(const kernel::Module& module, const kernel::FunctionDef& function, const std::map<std::string, Value>& arguments,
                    const std::string& file, const RunOptions& options)
{
    RunResult result;
    try {
        c10::InferenceMode guard;
        Interpreter(module, file, options, result).run(function, arguments);
    } catch (const SimError& e) {
        result.diagnostics.push_back(kernel::diagnosticAt(file, e.pos, e.code, e.message));
    } catch (const std::exception& e) {
        result.diagnostics.push_back(kernel::diagnosticAt(file, {function.pos.line, 1}, "sim.internal", std::string("the simulator failed: ") + e.what()));
    }
    return result;
}

} // namespace ptowb::sim
