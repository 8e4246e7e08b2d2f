#include "worker/kernel_worker.h"

#include "cost/cost_model.h"
#include "process/reaper.h"
#include "run_folder/run_folder.h"
#include "tensor/npy.h"
#include "torchscript/torchscript.h"
#include "worker/embedded_sources.h"
#include "worker/native_support.h"
#include "worker/reference_case.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>
#include <sys/resource.h>
#include <unistd.h>

namespace ptowb::worker {

namespace {

using nlohmann::json;

// Serves the embedded sources to Python's import system, so `import pypto` finds the
// workbench's module before any PyPTO installed on the machine.
const char* kBootstrap = R"(
import importlib.abc, importlib.util, sys
class _EmbeddedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, sources):
        self.sources = sources
    def find_spec(self, name, path=None, target=None):
        if name not in self.sources:
            return None
        rel, package, _ = self.sources[name]
        return importlib.util.spec_from_loader(name, self, origin="<ptowb>/" + rel, is_package=package)
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        rel, package, source = self.sources[module.__name__]
        module.__file__ = "<ptowb>/" + rel
        if package:
            module.__path__ = []
        exec(compile(source, module.__file__, "exec"), module.__dict__)
sys.meta_path.insert(0, _EmbeddedFinder(_ptowb_sources))
)";

void installSources()
{
    py::dict sources;
    for (const EmbeddedSource& s : embeddedSources())
        sources[py::str(s.module)] = py::make_tuple(s.path, s.package, s.source);
    py::dict scope;
    scope["_ptowb_sources"] = sources;
    py::exec(kBootstrap, scope);
}

at::Tensor initialOutput(const std::vector<std::int64_t>& shape, DType dtype, const json& init)
{
    const auto options = at::TensorOptions().dtype(torchscript::toTorch(dtype));
    if (init.is_number()) return at::full(shape, init.get<double>(), options);
    // Outputs start as NaN (or zero for integers), so elements the kernel never writes show up.
    return isFloating(dtype) ? at::full(shape, std::numeric_limits<double>::quiet_NaN(), options)
                             : at::zeros(shape, options);
}

py::object pyValue(const json& v)
{
    if (v.is_boolean()) return py::bool_(v.get<bool>());
    if (v.is_number_integer()) return py::int_(v.get<std::int64_t>());
    if (v.is_number()) return py::float_(v.get<double>());
    if (v.is_string()) return py::str(v.get<std::string>());
    if (v.is_array()) {
        py::list items;
        for (const auto& item : v)
            items.append(pyValue(item));
        return std::move(items);
    }
    if (v.is_object()) { // kernel arguments: {"class": ..., "fields": {...}}, {"dtype": name}
        py::dict items;
        for (const auto& [key, item] : v.items())
            items[py::str(key)] = pyValue(item);
        return std::move(items);
    }
    return py::none();
}

json failure(std::string message, std::string code = "sim.worker")
{
    return {{"status", "error"},
            {"message", std::move(message)},
            {"code", std::move(code)},
            {"line", 1},
            {"col", 1}};
}

json runCase(const json& request, py::module_& driver)
{
    const std::string caseDir = request.at("case_dir").get<std::string>();
    const std::string kernelFile = request.at("kernel_file").get<std::string>();
    py::dict inputs, outputs, params;
    for (const auto& name : request.at("inputs")) {
        auto read = readCaseInput(request, name.get<std::string>());
        if (auto* e = std::get_if<std::string>(&read)) return failure(*e, "sim.inputs");
        inputs[py::str(name.get<std::string>())] =
            Handle{torchscript::toAten(std::get<Tensor>(read))};
    }
    std::vector<std::pair<std::string, at::Tensor>> outputTensors;
    for (const auto& o : request.at("outputs")) {
        const auto dtype = dtypeFromName(o.at("dtype").get<std::string>());
        if (!dtype) return failure("unknown output dtype " + o.at("dtype").dump(), "sim.inputs");
        at::Tensor t = initialOutput(o.at("shape").get<std::vector<std::int64_t>>(), *dtype,
                                     o.value("init", json()));
        outputTensors.emplace_back(o.at("name").get<std::string>(), t);
        outputs[py::str(outputTensors.back().first)] = Handle{t};
    }
    const json paramValues = request.value("params", json::object()); // items() must not outlive it
    for (const auto& [name, value] : paramValues.items())
        params[py::str(name)] = pyValue(value);
    const py::object arguments = pyValue(request.value("arguments", json::object()));
    std::optional<cost::Platform> platform;
    if (const std::string file = request.value("platform_file", ""); !file.empty()) {
        std::string problem;
        platform = cost::loadPlatform(file, problem);
        if (!problem.empty()) return failure(file + ": " + problem, "sim.platform");
    }
    RunState state(kernelFile, platform, request.value("capture", false));
    for (const auto& item : inputs)
        state.sim.addGlobalTensor(item.second.cast<Handle&>().t);
    for (const auto& [name, t] : outputTensors)
        state.sim.addGlobalTensor(t);
    const auto started = std::chrono::steady_clock::now();
    py::dict result =
        driver.attr("run")(kernelFile, request.at("source").get<std::string>(),
                           request.at("function").get<std::string>(), inputs, outputs, params,
                           arguments, py::arg("made_by") = request.value("made_by", ""),
                           py::arg("made_with") = pyValue(request.value("made_with", json())));
    json answer = {
        {"log", result["log"].cast<std::string>()},
        {"kernel_seconds",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()}};
    if (!result["ok"].cast<bool>()) {
        answer["status"] = "error";
        for (const char* key : {"message", "code", "traceback"})
            answer[key] = result[key].cast<std::string>();
        for (const char* key : {"line", "col", "end_line", "end_col"})
            answer[key] = result[key].cast<int>();
        return answer;
    }
    std::filesystem::create_directories(runfolder::outputsDir(caseDir));
    for (const auto& name : request.value("mutated", json::array())) // inputs written in place
        outputTensors.emplace_back(name.get<std::string>(),
                                   inputs[py::str(name.get<std::string>())].cast<Handle&>().t);
    for (const auto& [name, t] : outputTensors) {
        auto out = torchscript::fromAten(t);
        if (!out) return failure("output '" + name + "' has a dtype the workbench cannot store");
        if (std::string e = writeNpy(runfolder::outputPath(caseDir, name), *out); !e.empty())
            return failure(e, "sim.io");
    }
    if (!state.captures.empty())
        std::filesystem::create_directories(std::filesystem::path(caseDir) / "captures");
    for (const auto& [line, captured] : state.captures)
        for (const auto& execution : captured.kept)
            if (auto t = torchscript::fromAten(execution.value))
                if (std::string e = writeNpy(
                        runfolder::capturePath(caseDir, line, execution.op, execution.number), *t);
                    !e.empty())
                    return failure(e, "sim.io");
    if (platform) {
        answer["cost_total_us"] = state.sim.cost.elapsed.us();
        answer["trace"] = state.sim.cost.traceJson(request.at("function").get<std::string>());
    }
    answer["status"] = "ok";
    return answer;
}

// What the worker allocates (the heap and private mappings: tensors, the simulator's buffers)
// is bounded, not its address space: torch's CUDA wheels map about 2.4 GB of libraries that no
// kernel uses, a fifth of the limit on a 24 GiB machine. Shared mappings, which RLIMIT_DATA does
// not count, are bounded by the address space the worker has now plus the same limit.
void limitMemory(std::int64_t megabytes)
{
    if (megabytes <= 0) return;
    const rlim_t bytes = rlim_t(megabytes) << 20;
    const rlimit data{bytes, bytes};
    setrlimit(RLIMIT_DATA, &data);
    unsigned long long pages = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
        std::fclose(statm);
    }
    const rlim_t mapped = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE));
    const rlimit space{mapped + bytes, mapped + bytes};
    setrlimit(RLIMIT_AS, &space);
}

void writeLine(FILE* protocol, const json& answer)
{
    const std::string text = answer.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    std::fwrite(text.data(), 1, text.size(), protocol);
    std::fflush(protocol);
}

} // namespace

int serve(const std::string& readyJson, std::int64_t memoryLimitMb)
{
    // Answers go to the original stdout; anything else that writes to fd 1 lands on stderr.
    std::fflush(stdout);
    FILE* protocol = fdopen(dup(1), "w");
    dup2(2, 1);
    installSources();
    py::module_ driver;
    try {
        driver = py::module_::import("_ptowb_driver");
    } catch (const py::error_already_set& e) {
        writeLine(protocol, {{"status", "error"},
                             {"code", "worker.python"},
                             {"message", std::string("the kernel worker cannot load its pypto "
                                                     "module: ") +
                                             e.what()}});
        return 3;
    }
    limitMemory(memoryLimitMb);
    // What a kernel starts is ended when its request is answered: the worker stays warm, and a
    // process left running would outlive the case. As the subreaper, double-forked and setsid
    // children are found too.
    process::becomeSubreaper();
    json ready = json::parse(readyJson, nullptr, false);
    writeLine(protocol, ready.is_object() ? ready : json{{"status", "ready"}});
    const pid_t worker = getpid();
    std::string line;
    while (std::getline(std::cin, line)) {
        json request = json::parse(line, nullptr, false);
        json answer;
        if (request.is_discarded() || !request.is_object())
            answer = failure("the request is not a JSON object");
        else if (request.value("op", "") == "ping")
            answer = {{"status", "ok"}};
        else if (request.value("op", "") == "reference") {
            try {
                answer = runReferenceCase(request);
            } catch (const std::exception& e) {
                answer = failure(std::string("the kernel worker failed: ") + e.what());
            }
        } else if (request.value("op", "") == "record") {
            // Import's recording runs the file's host code, whose kernel calls the simulator runs.
            try {
                RunState state(request.value("file", ""), std::nullopt, false);
                answer = json::parse(
                    py::module_::import("_ptowb_import").attr("request")(line).cast<std::string>(),
                    nullptr, false);
            } catch (const std::exception& e) {
                answer = failure(std::string("the kernel worker failed: ") + e.what());
            }
        } else if (request.value("op", "") != "run") {
            // Requests that execute nothing (syntax, api) are the driver's alone.
            try {
                answer =
                    json::parse(driver.attr("request")(line).cast<std::string>(), nullptr, false);
            } catch (const std::exception& e) {
                answer = failure(std::string("the kernel worker failed: ") + e.what());
            }
        } else {
            try {
                answer = runCase(request, driver);
            } catch (const std::exception& e) {
                answer = failure(std::string("the kernel worker failed: ") + e.what());
            }
        }
        // A copy of the worker a kernel forked, back from the kernel: the worker answers, not it.
        if (getpid() != worker) _exit(0);
        if (const int ended = process::endChildren(); ended > 0 && answer.contains("log"))
            answer["log"] = answer.value("log", "") + "[ptowb: " + std::to_string(ended) +
                            " process(es) the kernel started were still running and were "
                            "ended]\n";
        writeLine(protocol, answer);
    }
    return 0;
}

} // namespace ptowb::worker
