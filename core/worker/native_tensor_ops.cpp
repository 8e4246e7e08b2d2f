// Bindings of the simulator's reductions, matmul, casts and data movement.
#include "rules/shape_functions.h"
#include "torchscript/torchscript.h"
#include "worker/native_support.h"

#include <Python.h>
#include <frameobject.h>

namespace ptowb::worker {

using namespace ptowb::sim;

namespace {

std::vector<at::Tensor> tensors(const std::vector<Handle*>& hs)
{
    std::vector<at::Tensor> out;
    for (const Handle* h : hs)
        out.push_back(h->t);
    return out;
}

std::optional<at::Tensor> optionalTensor(py::handle v)
{
    if (v.is_none()) return std::nullopt;
    return v.cast<Handle&>().t;
}

} // namespace

RunState* g_current = nullptr;
std::uint64_t g_runs = 0;

// The run that began a loop, or none: a loop generator a failed run abandoned may be closed by
// the garbage collector during a later run, which it must leave alone.
sim::SimState* loopRun(std::uint64_t serial)
{
    return g_current && g_current->serial == serial ? &g_current->sim : nullptr;
}

void bindTensorOps(py::module_& m)
{
    m.def("reduce", [](const std::string& name, const Handle& x,
                       const std::vector<std::int64_t>& dims, bool keepdim) {
        return op(name.c_str(), [&](SimState& s) { return reduceOp(s, name, x.t, dims, keepdim); });
    });
    m.def("argreduce", [](const std::string& name, const Handle& x, std::optional<std::int64_t> dim,
                          bool keepdim) {
        return op(name.c_str(),
                  [&](SimState& s) { return argReduceOp(s, name, x.t, dim, keepdim); });
    });
    m.def("softmax", [](const Handle& x, std::int64_t dim) {
        return op("softmax", [&](SimState& s) { return softmaxOp(s, x.t, dim); });
    });
    m.def("matmul", [](const Handle& a, const Handle& b, const std::string& dtype, bool aTrans,
                       bool bTrans, py::handle bias, py::handle scale, py::handle c, bool relu) {
        return op("matmul", [&](SimState& s) {
            MatmulOptions o;
            o.aTrans = aTrans;
            o.bTrans = bTrans;
            o.bias = optionalTensor(bias);
            o.relu = relu;
            o.cMatrix = optionalTensor(c);
            if (!scale.is_none()) o.scale = scale.cast<double>();
            return matmulOp(s, a.t, b.t, dtypeArg(dtype), o);
        });
    });
    m.def("cast", [](const Handle& x, const std::string& dtype, const std::string& mode) {
        return op("cast", [&](SimState& s) { return castOp(s, x.t, dtypeArg(dtype), mode); });
    });
    m.def("view", [](const Handle& x, const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& offsets,
                     std::optional<std::vector<std::int64_t>> valid) {
        return op("view", [&](SimState& s) { return viewOp(s, x.t, shape, offsets, valid); });
    });
    m.def("assemble",
          [](const Handle& value, const std::vector<std::int64_t>& offsets, Handle& out) {
              RunState& run = RunState::current();
              run.sim.line = run.callerLine();
              assembleOp(run.sim, value.t, offsets, out.t);
          });
    m.def("copy_into", [](const Handle& value, Handle& out) {
        RunState& run = RunState::current();
        run.sim.line = run.callerLine();
        // A result of another rank and as many elements is the tensor reshaped: PyPTO rebinds
        // the name to it, and a kernel that updates a parameter through an in-place reshape
        // (`cache.move(pypto.scatter_update(cache_2d, ...))`) leaves it holding those elements.
        const bool reshaped = value.t.dim() != out.t.dim() && value.t.numel() == out.t.numel();
        if (value.t.sizes() != out.t.sizes() && !reshaped)
            throw OpError{"move: a " + shapeText(value.t.sizes()) + " tensor cannot replace a " +
                              shapeText(out.t.sizes()) + " one",
                          "sim.shape"};
        out.t.copy_(rounded(value.t, out.t.scalar_type()).reshape(out.t.sizes()));
        run.sim.memoryCost("store " + shapeText(out.t.sizes()), out.t,
                           std::int64_t(out.t.element_size()));
    });
    m.def("reshape", [](const Handle& x, const std::vector<std::int64_t>& shape) {
        return op("reshape", [&](SimState& s) { return reshapeOp(s, x.t, shape); });
    });
    m.def("permute", [](const Handle& x, const std::vector<std::int64_t>& dims) {
        return op("permute", [&](SimState&) { return permuteOp(x.t, dims); });
    });
    m.def("transpose", [](const Handle& x, std::int64_t d0, std::int64_t d1) {
        return op("transpose", [&](SimState&) { return transposeOp(x.t, d0, d1); });
    });
    m.def("unsqueeze", [](const Handle& x, std::int64_t d) {
        return op("unsqueeze", [&](SimState&) {
            return x.t.unsqueeze(normalizedDim(d, x.t.dim() + 1, "pypto.unsqueeze"));
        });
    });
    m.def("squeeze", [](const Handle& x, std::optional<std::int64_t> d) {
        return op("squeeze", [&](SimState&) {
            return d ? x.t.squeeze(normalizedDim(*d, x.t.dim(), "pypto.squeeze")) : x.t.squeeze();
        });
    });
    m.def("concat", [](const std::vector<Handle*>& hs, std::int64_t dim) {
        return op("concat", [&](SimState& s) { return concatOp(s, tensors(hs), dim); });
    });
    m.def("expand", [](const Handle& x, const std::vector<std::int64_t>& shape) {
        return op("expand_clone", [&](SimState& s) { return expandOp(s, x.t, shape); });
    });
    m.def("clone", [](const Handle& x) {
        return op("clone", [&](SimState& s) {
            s.vectorCost("clone", x.t);
            return x.t.clone();
        });
    });
    m.def("full", [](const std::vector<std::int64_t>& shape, double value,
                     const std::string& dtype) {
        return op("full", [&](SimState& s) { return fullOp(s, shape, value, dtypeArg(dtype)); });
    });
    m.def("arange", [](double start, double end, double step, const std::string& dtype) {
        return op("arange",
                  [&](SimState& s) { return arangeOp(s, start, end, step, dtypeArg(dtype)); });
    });
    m.def("gather", [](const Handle& x, std::int64_t dim, const Handle& index) {
        return op("gather", [&](SimState& s) { return gatherOp(s, x.t, dim, index.t); });
    });
    m.def("index_select", [](const Handle& x, std::int64_t dim, const Handle& index) {
        return op("index_select", [&](SimState& s) { return indexSelectOp(s, x.t, dim, index.t); });
    });
    m.def("gather_in_ub", [](const Handle& param, const Handle& indices, const Handle& blockTable,
                             std::int64_t blockSize) {
        return op("experimental.gather_in_ub", [&](SimState& s) {
            return gatherInUbOp(s, param.t, indices.t, blockTable.t, blockSize);
        });
    });
    m.def("index_put", [](const Handle& x, const std::vector<Handle>& indices, const Handle& values,
                          bool accumulate) {
        return op("index_put_", [&](SimState& s) {
            std::vector<at::Tensor> index;
            for (const Handle& i : indices)
                index.push_back(i.t);
            return indexPutOp(s, x.t, index, values.t, accumulate);
        });
    });
    m.def("scatter_update",
          [](const Handle& x, std::int64_t dim, const Handle& index, const Handle& src) {
              return op("scatter_update",
                        [&](SimState& s) { return scatterUpdateOp(s, x.t, dim, index.t, src.t); });
          });
    m.def("scatter", [](const Handle& x, std::int64_t dim, const Handle& index, py::handle src,
                        const std::string& reduce) {
        return op("scatter", [&](SimState& s) {
            return scatterOp(s, x.t, dim, index.t, operand(src), reduce);
        });
    });
    m.def("topk", [](const Handle& x, std::int64_t k, std::int64_t dim, bool largest) {
        return op("topk", [&](SimState& s) {
            auto [v, i] = topkOp(s, x.t, k, dim, largest);
            return std::make_pair(wrap(v), wrap(i));
        });
    });
    m.def("sort", [](const Handle& x, std::int64_t dim, bool descending) {
        return op("sort", [&](SimState& s) {
            auto [v, i] = sortOp(s, x.t, dim, descending);
            return std::make_pair(wrap(v), wrap(i));
        });
    });
    m.def("pad", [](const Handle& x, const std::vector<std::int64_t>& pad, double value) {
        return op("pad", [&](SimState& s) { return padOp(s, x.t, pad, value); });
    });
    m.def("one_hot", [](const Handle& x, std::int64_t classes) {
        return op("one_hot", [&](SimState& s) { return oneHotOp(s, x.t, classes); });
    });
    m.def("set_vec_tile", [](const std::vector<std::int64_t>& dims) {
        RunState& run = RunState::current();
        for (auto d : dims)
            if (d <= 0)
                throw OpError{"pypto.set_vec_tile_shapes: every tile dim must be > 0, got " +
                                  shapefn::toString(dims),
                              "sim.tile"};
        run.sim.vecTile = dims;
        run.sim.vecTileLine = run.callerLine();
    });
    m.def("vec_tile", []() { return RunState::current().sim.vecTile; });
    m.def("begin_loop", []() -> std::uint64_t {
        if (!g_current) return 0;
        g_current->sim.beginLoop();
        return g_current->serial;
    });
    m.def("next_iteration", [](std::uint64_t run) {
        if (auto* sim = loopRun(run)) sim->nextIteration();
    });
    m.def("end_loop", [](std::uint64_t run) {
        if (auto* sim = loopRun(run)) sim->endLoop();
    });
    // The same bytes read as another dtype (pypto.pack / unpack), flattened as PyPTO does.
    m.def("bitcast", [](const Handle& x, const std::string& dtype) {
        return op("bitcast", [&](sim::SimState&) {
            return x.t.contiguous().reshape(-1).view(torchscript::toTorch(dtypeArg(dtype)));
        });
    });
    m.def("fill", [](Handle& h, double value) {
        RunState& run = RunState::current();
        run.sim.line = run.callerLine();
        fillRegion(h.t, value);
    });
    m.def("running", []() { return g_current != nullptr; });
}

RunState::RunState(std::string kernelFile, std::optional<cost::Platform> platform, bool capture)
    : sim(std::move(platform)), serial(++g_runs), m_kernelFile(std::move(kernelFile)),
      m_capture(capture), m_previous(g_current)
{
    g_current = this;
}

RunState::~RunState()
{
    g_current = m_previous;
}

RunState& RunState::current()
{
    if (!g_current) throw OpError{"pypto tensor ops run only inside a kernel call", "sim.state"};
    return *g_current;
}

int RunState::callerLine()
{
    PyFrameObject* frame = PyEval_GetFrame(); // borrowed
    Py_XINCREF(frame);
    int line = 0;
    while (frame) {
        PyCodeObject* code = PyFrame_GetCode(frame);
        const char* file = PyUnicode_AsUTF8(code->co_filename);
        const bool match = file && m_kernelFile == file;
        Py_DECREF(code);
        if (match) {
            line = PyFrame_GetLineNumber(frame);
#if PY_VERSION_HEX >= 0x030B0000
            m_callerOffset = PyFrame_GetLasti(frame);
#else
            m_callerOffset = frame->f_lasti;
#endif
            Py_DECREF(frame);
            break;
        }
        PyFrameObject* back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    return line;
}

void RunState::capture(const char* opName, const at::Tensor& value)
{
    if (!m_capture || sim.line == 0) return;
    LineCaptures& line = captures[sim.line];
    // The same execution of the line goes on while the frame's offset moves forward within it.
    const bool sameExecution =
        !line.kept.empty() && sim.line == m_lastCaptureLine && m_callerOffset > m_lastCaptureOffset;
    m_lastCaptureLine = sim.line;
    m_lastCaptureOffset = m_callerOffset;
    if (!sameExecution) ++line.executions;
    const std::size_t bytes = value.nbytes();
    const bool replaceLast =
        sameExecution || (!line.kept.empty() && (line.kept.size() >= kMaxExecutionsPerLine ||
                                                 m_captureBytes + bytes > kMaxCaptureBytes));
    if (replaceLast) {
        m_captureBytes -= line.kept.back().value.nbytes();
        line.kept.pop_back();
    } else if (m_captureBytes + bytes > kMaxCaptureBytes) {
        return; // nothing of this line fits
    }
    m_captureBytes += bytes;
    line.kept.push_back(Execution{line.executions, opName, value.clone()});
}

} // namespace ptowb::worker
