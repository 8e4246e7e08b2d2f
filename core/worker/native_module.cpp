// `_ptowb_sim`: the simulator's ops for the `pypto` module of the kernel worker. A tensor is
// an opaque handle around a libtorch tensor; the Python side (python/pypto) gives it PyPTO's
// API. Each op records the kernel line that called it, for the cost estimate and captures, and
// turns an OpError into pypto.SimulatorError, which the driver reports at that line.
#include "process/capped_text.h"
#include "sim/sim_ops.h"
#include "torchscript/torchscript.h"
#include "worker/native_support.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace ptowb;
using namespace ptowb::sim;
using namespace ptowb::worker;

namespace ptowb::worker {

namespace {

at::Tensor indexed(const at::Tensor& t, const py::tuple& index)
{
    std::vector<at::indexing::TensorIndex> parts;
    std::size_t consumed = 0;
    for (const auto& item : index)
        if (!item.is_none() && !py::isinstance<py::ellipsis>(item)) ++consumed;
    if (std::int64_t(consumed) > t.dim())
        throw OpError{"too many indices (" + std::to_string(consumed) + ") for a tensor of shape " +
                          shapeText(t.sizes()),
                      "sim.view"};
    std::int64_t dim = 0;
    for (const auto& item : index) {
        if (py::isinstance<py::ellipsis>(item)) {
            parts.emplace_back(at::indexing::Ellipsis);
            dim += t.dim() - std::int64_t(consumed);
        } else if (item.is_none())
            parts.emplace_back(at::indexing::None);
        else if (py::isinstance<py::slice>(item)) {
            py::slice sl = item.cast<py::slice>();
            auto bound = [](py::object b) -> c10::optional<std::int64_t> {
                if (b.is_none()) return c10::nullopt;
                return b.cast<std::int64_t>();
            };
            const auto step = bound(sl.attr("step"));
            if (step && *step <= 0)
                throw OpError{"slice steps must be positive in a kernel", "sim.view"};
            parts.emplace_back(
                at::indexing::Slice(bound(sl.attr("start")), bound(sl.attr("stop")), step));
            ++dim;
        } else {
            const std::int64_t i = item.cast<std::int64_t>();
            const std::int64_t size = t.size(dim);
            if (i < -size || i >= size)
                throw OpError{"index " + std::to_string(i) + " is out of range for dim " +
                                  std::to_string(dim) + " of size " + std::to_string(size) +
                                  " (tensor " + shapeText(t.sizes()) + ")",
                              "sim.view"};
            parts.emplace_back(i);
            ++dim;
        }
    }
    return t.index(parts);
}

} // namespace

} // namespace ptowb::worker

void ptowb::worker::bindSimModule(py::module_& m)
{
    static py::exception<OpError> simError(m, "SimulatorError");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const OpError& e) {
            py::object err = py::reinterpret_borrow<py::object>(simError.ptr())(py::str(e.message));
            py::setattr(err, "code", py::str(e.code));
            PyErr_SetObject(simError.ptr(), err.ptr());
        } catch (const c10::Error& e) {
            PyErr_SetString(simError.ptr(), e.what_without_backtrace());
        }
    });

    py::class_<Handle>(m, "Handle")
        .def_property_readonly("shape", [](const Handle& h) { return h.t.sizes().vec(); })
        .def_property_readonly("dtype",
                               [](const Handle& h) { return std::string(dtypeName(dtypeOf(h.t))); })
        .def_property_readonly("numel", [](const Handle& h) { return h.t.numel(); });

    m.def("unary", [](const std::string& name, const Handle& x) {
        return op(name.c_str(), [&](SimState& s) { return unaryOp(s, name, x.t); });
    });
    m.def("round", [](const Handle& x, std::int64_t decimals) {
        return op("round", [&](SimState& s) { return roundDecimals(s, x.t, decimals); });
    });
    m.def("binary", [](const std::string& name, py::handle a, py::handle b) {
        return op(name.c_str(),
                  [&](SimState& s) { return binaryOp(s, name, operand(a), operand(b)); });
    });
    m.def("compare", [](const std::string& name, py::handle a, py::handle b) {
        return op(name.c_str(),
                  [&](SimState& s) { return compareOp(s, name, operand(a), operand(b)); });
    });
    m.def("where", [](const Handle& c, py::handle a, py::handle b) {
        return op("where", [&](SimState& s) { return whereOp(s, c.t, operand(a), operand(b)); });
    });
    m.def("clip", [](const Handle& x, py::handle lo, py::handle hi) {
        return op("clip", [&](SimState& s) {
            return clipOp(s, x.t, lo.is_none() ? std::nullopt : std::optional<Operand>(operand(lo)),
                          hi.is_none() ? std::nullopt : std::optional<Operand>(operand(hi)));
        });
    });
    bindTensorOps(m);
    bindBufferOps(m);

    // The kernel's print output (the driver's sys.stdout and sys.stderr while it runs): the first
    // and the last MiB of it, however much it prints, like a runner's logs.
    py::class_<process::CappedText>(m, "CappedText")
        .def(py::init<>())
        .def("append",
             [](process::CappedText& text, const py::bytes& data) {
                 char* bytes = nullptr;
                 Py_ssize_t size = 0;
                 PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
                 text.append(std::string_view(bytes, std::size_t(size)));
             })
        .def("text", [](const process::CappedText& text) { return py::bytes(text.text()); });

    // PyPTO's GetTensorData: an int for every dim of an integer tensor reads that element as a
    // scalar (a loop bound, an offset), not a one-element view.
    m.def("element", [](const Handle& x, const py::tuple& index) {
        if (!at::isIntegralType(x.t.scalar_type(), /*includeBool=*/false))
            throw OpError{"reading one element as a scalar needs an integer tensor (PyPTO's "
                          "GetTensorData), this one is " +
                              std::string(dtypeName(dtypeOf(x.t))) +
                              ": take a slice (x[i:i+1]) to get a tensor",
                          "sim.element"};
        return indexed(x.t, index).item<std::int64_t>();
    });
    m.def("getitem", [](const Handle& x, const py::tuple& index) {
        return op("view", [&](SimState& s) {
            at::Tensor v = indexed(x.t, index);
            s.memoryCost("load view " + shapeText(v.sizes()), v, std::int64_t(v.element_size()));
            return v;
        });
    });
}
