#pragma once

// Internal to core/worker: the run state the native ops share, and the pieces of the
// `_ptowb_sim` module's bindings. Includes pybind11 and libtorch.
#include "sim/sim_ops.h"

#include <map>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>

namespace ptowb::worker {

namespace py = pybind11;

// One case being run: the simulator state, where the kernel file is (to find the calling line
// among Python's frames) and the captured intermediates: per kernel line, the value of each
// execution (a loop's iterations), the last op's result when one execution runs several ops.
class RunState
{
public:
    RunState(std::string kernelFile, std::optional<cost::Platform> platform, bool capture);
    ~RunState();
    static RunState& current();

    sim::SimState sim;
    // Tells this run from later ones in the same worker (loop bookkeeping checks it).
    const std::uint64_t serial;
    struct Execution
    {
        int number = 0; // 1-based: the how-many-th time the line ran
        std::string op;
        at::Tensor value;
    };
    struct LineCaptures
    {
        int executions = 0;          // how often the line ran
        std::vector<Execution> kept; // the first ones, and always the latest in the last slot
    };
    std::map<int, LineCaptures> captures;
    // Bounds on what a run keeps: a long loop keeps its first iterations and its last.
    static constexpr std::size_t kMaxExecutionsPerLine = 256;
    static constexpr std::size_t kMaxCaptureBytes = std::size_t(512) << 20;

    // The line of the innermost Python frame executing the kernel file (0 when none is), and
    // the frame's instruction offset, which tells a new execution of a line from the next op
    // of the same one.
    int callerLine();
    void capture(const char* op, const at::Tensor& value);

private:
    std::string m_kernelFile;
    bool m_capture;
    RunState* m_previous;
    int m_callerOffset = -1;
    int m_lastCaptureLine = 0;
    int m_lastCaptureOffset = -1;
    std::size_t m_captureBytes = 0;
};

struct Handle
{
    at::Tensor t;
};

inline Handle wrap(at::Tensor t)
{
    return Handle{std::move(t)};
}

inline DType dtypeArg(const std::string& name)
{
    if (auto d = dtypeFromName(name)) return *d;
    throw sim::OpError{"unknown dtype '" + name + "'", "sim.type"};
}

inline sim::Operand operand(const py::handle& v)
{
    sim::Operand o;
    if (py::isinstance<Handle>(v))
        o.tensor = v.cast<Handle&>().t;
    else if (py::isinstance<py::bool_>(v)) {
        o.number = v.cast<bool>() ? 1 : 0;
        o.isInt = true;
    } else if (py::isinstance<py::int_>(v)) {
        o.number = double(v.cast<std::int64_t>());
        o.isInt = true;
    } else if (py::isinstance<py::float_>(v))
        o.number = v.cast<double>();
    else
        throw sim::OpError{"expected a tensor or a number, got " +
                               std::string(py::str(py::type::of(v).attr("__name__"))),
                           "sim.type"};
    return o;
}

// Records the calling kernel line, runs the op, and captures its tensor result.
template <class F> auto op(const char* name, F&& f)
{
    RunState& run = RunState::current();
    run.sim.line = run.callerLine();
    auto result = f(run.sim);
    if constexpr (std::is_same_v<decltype(result), at::Tensor>) {
        run.capture(name, result);
        return wrap(std::move(result));
    } else
        return result;
}

void bindTensorOps(py::module_& m);
// from_bytes, to_bytes, save_npy: host tensors in and out of the simulator (native_buffers.cpp).
void bindBufferOps(py::module_& m);
// Fills `_ptowb_sim`, the simulator's ops as the `pypto` module calls them.
void bindSimModule(py::module_& m);

} // namespace ptowb::worker
