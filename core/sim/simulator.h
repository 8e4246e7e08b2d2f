#pragma once

// The built-in simulator: runs a checked PyPTO kernel (kernel/kernel_ast.h) on libtorch with
// the semantics of DESIGN §5. Includes libtorch: only for core .cpp files and generated op
// libraries.
#include "kernel/kernel_ast.h"
#include "sim/cost_model.h"
#include "types/dtype.h"

#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

namespace ptowb::sim {

// A value while the kernel runs: what Python would hold.
struct Value
{
    enum class Kind { None, Bool, Int, Float, Str, DType, Tensor, Tuple, Module, Function, Method };
    Kind kind = Kind::None;
    std::int64_t i = 0;
    double f = 0;
    std::string s;        // Str; Function: the pypto name; Method: the method name; Module: its path
    DType dtype = DType::Float32;
    at::Tensor tensor;    // Tensor; Method: the receiver
    std::vector<Value> items;

    static Value none() { return {}; }
    static Value ofBool(bool v);
    static Value ofInt(std::int64_t v);
    static Value ofFloat(double v);
    static Value ofStr(std::string v);
    static Value ofDType(DType v);
    static Value ofTensor(at::Tensor v);
    static Value ofTuple(std::vector<Value> v);
};

// The last value an assignment site (line, name) took, kept when capture is on (the app's
// inspector).
struct Capture
{
    int line = 0;
    std::string name;
    at::Tensor value;
};

struct RunOptions
{
    bool capture = false;
    const Platform* platform = nullptr; // null: no cost estimate
};

struct RunResult
{
    Diagnostics diagnostics; // errors stop the run; outputs are then incomplete
    std::vector<Capture> captures;
    CostReport cost;
};

// Runs `function` of the parsed kernel. `arguments` binds every kernel parameter by name;
// output tensors are written in place.
RunResult runKernel(const kernel::Module& module, const kernel::FunctionDef& function, const std::map<std::string, Value>& arguments,
                    const std::string& file, const RunOptions& options);

// For generated op libraries: parses kernel text, runs `function` with the arguments bound by
// name (inputs, outputs allocated by the caller and written in place, parameters), and throws
// std::runtime_error carrying the file:line:col diagnostics when the kernel cannot run.
void simulateOnTensors(const std::string& kernelSource, const std::string& file, const std::string& function,
                       const std::map<std::string, Value>& arguments);

inline Value toValue(const at::Tensor& t) { return Value::ofTensor(t); }
inline Value toValue(bool v) { return Value::ofBool(v); }
inline Value toValue(std::int64_t v) { return Value::ofInt(v); }
inline Value toValue(double v) { return Value::ofFloat(v); }
inline Value toValue(const std::string& v) { return Value::ofStr(v); }
template <class T> Value toValue(const std::vector<T>& list)
{
    std::vector<Value> items;
    for (const T& item : list) items.push_back(toValue(item));
    return Value::ofTuple(std::move(items));
}

} // namespace ptowb::sim
