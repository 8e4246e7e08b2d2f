#include "sim/simulator.h"

#include "diag/diagnostic.h"
#include "run_folder/run_folder.h"
#include "tensor/npy.h"
#include "torchscript/torchscript.h"
#include "worker_client/worker_client.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ptowb::sim {

std::string jsonText(bool value)
{
    return nlohmann::json(value).dump();
}
std::string jsonText(std::int64_t value)
{
    return nlohmann::json(value).dump();
}
std::string jsonText(double value)
{
    return nlohmann::json(value).dump();
}
std::string jsonText(const std::string& value)
{
    return nlohmann::json(value).dump();
}
std::string jsonText(const std::vector<std::int64_t>& value)
{
    return nlohmann::json(value).dump();
}
std::string jsonText(const std::vector<double>& value)
{
    return nlohmann::json(value).dump();
}
std::string dtypeJsonText(const std::string& dtypeName)
{
    return nlohmann::json{{"dtype", dtypeName}}.dump();
}

namespace {

// A case folder of its own for one call, removed afterwards.
struct TemporaryCase
{
    std::string dir;
    TemporaryCase()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "ptowb-sim-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a folder for the simulator's case");
        dir = pattern;
    }
    ~TemporaryCase()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

// The kernel file among the project's modules it imports, at their paths in the project below
// the case folder, so that its imports find them: the kernel file's path there. Without modules
// the kernel runs under its own name, as before.
std::string writeKernelFolder(const std::string& caseDir, const std::string& file,
                              const std::string& kernelSource, const KernelArguments& arguments)
{
    if (arguments.modules.empty()) return file;
    namespace fs = std::filesystem;
    const fs::path root = fs::path(caseDir) / "project";
    auto write = [&](const std::string& relative, const std::string& text) {
        const fs::path path = (root / relative).lexically_normal();
        const auto inside = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
        if (inside.first != root.end() || fs::path(relative).is_absolute())
            throw std::runtime_error("module path " + relative + " leaves the kernel's folder");
        fs::create_directories(path.parent_path());
        std::ofstream out(path, std::ios::binary);
        out << text;
        if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
        return path.string();
    };
    for (const auto& [relative, text] : arguments.modules)
        write(relative, text);
    return write(file, kernelSource);
}

} // namespace

void simulateOnTensors(const std::string& kernelSource, const std::string& file,
                       const std::string& function, KernelArguments& arguments)
{
    TemporaryCase work;
    std::filesystem::create_directories(std::filesystem::path(work.dir) / "inputs");
    const std::string kernelFile = writeKernelFolder(work.dir, file, kernelSource, arguments);
    nlohmann::json request = {{"op", "run"},
                              {"case_dir", work.dir},
                              {"kernel_file", kernelFile},
                              {"source", kernelSource},
                              {"function", function},
                              {"made_by", arguments.madeBy}};
    if (!arguments.madeWithJson.empty())
        request["made_with"] = nlohmann::json::parse(arguments.madeWithJson);
    request["inputs"] = nlohmann::json::array();
    for (const auto& [name, tensor] : arguments.inputs) {
        auto t = torchscript::fromAten(tensor.contiguous());
        if (!t)
            throw std::runtime_error("input '" + name + "' has a dtype the simulator cannot take");
        if (std::string e = writeNpy(runfolder::inputPath(work.dir, name), *t); !e.empty())
            throw std::runtime_error(e);
        request["inputs"].push_back(name);
    }
    request["outputs"] = nlohmann::json::array();
    for (const auto& [name, tensor] : arguments.outputs) {
        const auto dtype = torchscript::fromTorch(tensor.scalar_type());
        if (!dtype)
            throw std::runtime_error("output '" + name +
                                     "' has a dtype the simulator cannot write");
        request["outputs"].push_back(
            {{"name", name}, {"shape", tensor.sizes().vec()}, {"dtype", dtypeName(*dtype)}});
    }
    request["params"] = nlohmann::json::object();
    for (const auto& [name, text] : arguments.paramsJson)
        request["params"][name] = nlohmann::json::parse(text);
    request["mutated"] = arguments.mutated;
    request["arguments"] = nlohmann::json::object();
    for (const auto& [name, argument] : arguments.kernelArguments) {
        if (argument.className.empty()) {
            request["arguments"][name] = nlohmann::json::parse(argument.valueJson);
            continue;
        }
        nlohmann::json fields = nlohmann::json::object();
        for (const auto& [field, text] : argument.fieldsJson)
            fields[field] = nlohmann::json::parse(text);
        request["arguments"][name] = {{"class", argument.className}, {"fields", std::move(fields)}};
    }
    const nlohmann::json answer = worker::WorkerClient::shared().call(request, 600, nullptr);
    if (answer.value("status", "") != "ok") {
        Diagnostic d;
        d.file = file;
        d.line = answer.value("line", 1);
        d.col = answer.value("col", 1);
        d.code = answer.value("code", "sim.error");
        d.message = answer.value("message", "the kernel failed");
        throw std::runtime_error(formatDiagnostic(d));
    }
    auto readBack = [&](const std::string& name, at::Tensor& tensor) {
        auto read = readNpy(runfolder::outputPath(work.dir, name));
        if (auto* e = std::get_if<std::string>(&read))
            throw std::runtime_error("output '" + name + "': " + *e);
        tensor.copy_(torchscript::toAten(std::get<Tensor>(read)));
    };
    for (auto& [name, tensor] : arguments.outputs)
        readBack(name, tensor);
    for (const std::string& name : arguments.mutated)
        readBack(name, arguments.inputs.at(name));
}

} // namespace ptowb::sim
