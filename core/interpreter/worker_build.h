#pragma once

// The kernel worker's native part for one interpreter: the Python extension `_ptowb_worker`
// (the simulator's ops and the request loop) and the reference engine, both compiled against the
// torch that interpreter imports, so the kernel, the simulator and the reference share one torch
// in one process. The build ships one prebuilt for the system Python; any other interpreter and
// torch get theirs built on first use into the user's cache (${PTOWB_CACHE:-~/.cache/ptowb}),
// keyed by the interpreter, its torch and the sources, from the description the build writes
// beside the worker (worker_build.json). Standard C++ and POSIX only.
#include "interpreter/interpreter.h"

#include <cstddef>
#include <functional>
#include <string>
#include <variant>

namespace ptowb::interpreter {

struct WorkerModule
{
    std::string module;          // _ptowb_worker<ext suffix>
    std::string referenceModule; // libptowb_reference.so
};

// Says what the build is doing ("compiling 3 of 12: sim_ops.cpp").
using BuildProgress = std::function<void(const std::string&)>;

// The worker's native part for `interpreter`: the prebuilt one when it was built for this very
// Python and torch, else the cached one, built now when missing (minutes, once; another process
// building the same one is waited for). The error names what is missing.
std::variant<WorkerModule, std::string> workerModuleFor(const Interpreter& interpreter,
                                                        const std::string& libDir,
                                                        const BuildProgress& progress);

// Keeps the worker cache bounded: `keepDir` and the most recently built others, kKeptWorkers in
// all, stay; older ones go with their locks (a worker that has loaded one keeps running).
constexpr std::size_t kKeptWorkers = 6;
void pruneWorkerCache(const std::string& rootDir, const std::string& keepDir);

} // namespace ptowb::interpreter
