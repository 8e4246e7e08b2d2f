// Tensors crossing between the kernel's host code and the simulator, for import's recording of
// the file's own calls: a host torch tensor arrives as its bytes (torch's Python objects never
// reach native code, so any torch the interpreter has works), a simulator tensor leaves as bytes,
// and a recorded input is kept as a .npy file for the case it becomes.
#include "tensor/npy.h"
#include "torchscript/torchscript.h"
#include "worker/native_support.h"

#include <cstring>

namespace ptowb::worker {

void bindBufferOps(py::module_& m)
{
    m.def("from_bytes", [](const py::bytes& data, const std::vector<std::int64_t>& shape,
                           const std::string& dtype) {
        char* bytes = nullptr;
        Py_ssize_t size = 0;
        PyBytes_AsStringAndSize(data.ptr(), &bytes, &size);
        Tensor t(dtypeArg(dtype), shape);
        if (std::size_t(size) != t.byteSize())
            throw sim::OpError{"a tensor of shape " + sim::shapeText(shape) + " and dtype " +
                                   dtype + " needs " + std::to_string(t.byteSize()) +
                                   " bytes, not " + std::to_string(size),
                               "sim.type"};
        if (size > 0) std::memcpy(t.mutableBytes(), bytes, std::size_t(size));
        return wrap(torchscript::toAten(t));
    });
    m.def("to_bytes", [](const Handle& h) {
        auto t = torchscript::fromAten(h.t);
        if (!t) throw sim::OpError{"a tensor the workbench cannot store", "sim.type"};
        return py::bytes(reinterpret_cast<const char*>(t->bytes()), t->byteSize());
    });
    // "" or why the file could not be written.
    m.def("save_npy", [](const Handle& h, const std::string& path) {
        auto t = torchscript::fromAten(h.t);
        if (!t) return std::string("a tensor the workbench cannot store");
        return writeNpy(path, *t);
    });
}

} // namespace ptowb::worker
