// The Python extension `_ptowb_worker`, built for each interpreter and torch that runs kernels
// (core/interpreter/worker_build.h): the simulator's ops as `_ptowb_sim`, and the request loop
// that ptowb_boot.py hands the process to.
#include "worker/kernel_worker.h"
#include "worker/native_support.h"

#include <pybind11/pybind11.h>

PYBIND11_MODULE(_ptowb_worker, m)
{
    namespace py = pybind11;
    py::module_ sim = m.def_submodule("_ptowb_sim", "the simulator's ops for the pypto module");
    ptowb::worker::bindSimModule(sim);
    py::module_::import("sys").attr("modules")["_ptowb_sim"] = sim;
    m.def("serve", &ptowb::worker::serve, py::arg("ready_json"), py::arg("memory_limit_mb"));
}
