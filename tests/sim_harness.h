#pragma once

// Runs kernel source in the kernel worker on libtorch tensors, for the simulator's tests and
// benchmarks: writes a case folder, sends the request, reads outputs, trace and captures back.
#include "cost/cost_model.h"
#include "run_folder/run_folder.h"
#include "tensor/npy.h"
#include "torchscript/torchscript.h"
#include "worker_client/worker_client.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>
#include <vector>

namespace simtest {

struct OutputSpec
{
    std::vector<std::int64_t> shape;
    at::ScalarType type = at::kFloat;
};

struct SimRun
{
    nlohmann::json answer;
    std::map<std::string, at::Tensor> outputs;
    ptowb::cost::CostReport cost;
    std::vector<ptowb::runfolder::CaptureFile> captures;
    std::string kernelFile;
    bool ok() const { return answer.value("status", "") == "ok"; }
    // "line:col code message", as the tests compare it.
    std::string where() const
    {
        return std::to_string(answer.value("line", 0)) + ":" +
               std::to_string(answer.value("col", 0)) + " " + answer.value("code", "") + " " +
               answer.value("message", "");
    }
};

// In a Qt Test: fails the test with the run's error and traceback unless it succeeded.
#define REQUIRE_OK(run)                                                                            \
    QVERIFY2((run).ok(), ((run).where() + "\n" + (run).answer.value("traceback", "")).c_str())

// The case folders of this process, removed when it exits: a test reads a run's files after
// runSource returns, so they live as long as the test executable.
struct CaseFolders
{
    std::vector<std::filesystem::path> made;
    ~CaseFolders()
    {
        std::error_code ignored;
        for (const auto& dir : made)
            std::filesystem::remove_all(dir, ignored);
    }
};

inline std::string freshDir()
{
    static CaseFolders folders;
    const auto dir =
        std::filesystem::temp_directory_path() / ("ptowb-simtest-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(folders.made.size() + 1));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "inputs");
    folders.made.push_back(dir);
    return dir.string();
}

inline SimRun runSource(const std::string& source, const std::map<std::string, at::Tensor>& inputs,
                        const std::map<std::string, OutputSpec>& outputs,
                        nlohmann::json params = nlohmann::json::object(),
                        const std::string& platformJson = "", bool capture = false,
                        const std::string& function = "kernel", double timeoutSeconds = 60,
                        const std::atomic<bool>* cancel = nullptr)
{
    const std::string dir = freshDir();
    SimRun run;
    run.kernelFile = dir + "/kernel.py";
    std::ofstream(run.kernelFile) << source;
    nlohmann::json request = {
        {"op", "run"},       {"case_dir", dir},      {"kernel_file", run.kernelFile},
        {"source", source},  {"function", function}, {"params", params},
        {"capture", capture}};
    request["inputs"] = nlohmann::json::array();
    for (const auto& [name, t] : inputs) {
        ptowb::writeNpy(ptowb::runfolder::inputPath(dir, name),
                        *ptowb::torchscript::fromAten(t.contiguous()));
        request["inputs"].push_back(name);
    }
    request["outputs"] = nlohmann::json::array();
    for (const auto& [name, o] : outputs)
        request["outputs"].push_back(
            {{"name", name},
             {"shape", o.shape},
             {"dtype", ptowb::dtypeName(*ptowb::torchscript::fromTorch(o.type))}});
    if (!platformJson.empty()) {
        std::ofstream(dir + "/platform.json") << platformJson;
        request["platform_file"] = dir + "/platform.json";
    }
    run.answer = ptowb::worker::WorkerClient::shared().call(request, timeoutSeconds, cancel);
    if (!run.ok()) return run;
    for (const auto& [name, o] : outputs) {
        auto read = ptowb::readNpy(ptowb::runfolder::outputPath(dir, name));
        if (auto* t = std::get_if<ptowb::Tensor>(&read))
            run.outputs[name] = ptowb::torchscript::toAten(*t);
    }
    if (run.answer.contains("trace"))
        run.cost = ptowb::cost::costReportFromTrace(run.answer["trace"].get<std::string>());
    run.captures = ptowb::runfolder::listCaptures(dir);
    return run;
}

inline at::Tensor capturedValue(const ptowb::runfolder::CaptureFile& c)
{
    return ptowb::torchscript::toAten(std::get<ptowb::Tensor>(ptowb::readNpy(c.path)));
}

} // namespace simtest
