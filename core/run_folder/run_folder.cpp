#include "run_folder/run_folder.h"

#include "io/atomic_write.h"
#include "rules/shape_functions.h"
#include "tensor/npy.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <tuple>

namespace ptowb {

namespace fs = std::filesystem;

namespace runfolder {

constexpr const char* kTraceFile = "trace.json"; // beside run.json, which names it

std::string newRunId(const std::string& backend)
{
    static std::atomic<int> counter{0};
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    const int n = counter++;
    return std::string(stamp) + (n ? "-" + std::to_string(n) : "") + "-" + backend;
}

std::string caseDir(const std::string& runDir, const std::string& caseName)
{
    return (fs::path(runDir) / caseName).string();
}

std::string mismatchWithRules(const Tensor& t, const InferredOutput& expected)
{
    if (t.shape() == expected.shape && t.dtype() == expected.dtype) return {};
    return describe(t) + ", but the rules say " + std::string(dtypeName(expected.dtype)) +
           shapefn::toString(expected.shape);
}

nlohmann::ordered_json tensorInfoJson(const std::string& name,
                                      const std::vector<std::int64_t>& shape, DType dtype)
{
    return {{"name", name}, {"shape", shape}, {"dtype", std::string(dtypeName(dtype))}};
}

std::string writeRecord(const std::string& dir, const RunRecord& r)
{
    nlohmann::ordered_json j;
    j["backend"] = r.backend;
    j["case"] = r.caseName;
    j["status"] = r.status;
    j["exit_code"] = r.exitCode;
    j["duration_s"] = r.durationSeconds;
    j["error"] = r.error;
    j["stderr_tail"] = r.stderrTail;
    if (r.interpreter.is_object()) {
        nlohmann::ordered_json who;
        for (const char* key : {"executable", "python", "torch", "pypto", "torch_npu"})
            if (r.interpreter.contains(key)) who[key] = r.interpreter[key];
        j["interpreter"] = who;
    }
    j["inputs"] = nlohmann::json::array();
    for (const auto& i : r.inputs)
        j["inputs"].push_back(tensorInfoJson(i.name, i.shape, i.dtype));
    j["outputs"] = nlohmann::json::array();
    for (const auto& o : r.expectedOutputs)
        j["outputs"].push_back(tensorInfoJson(o.name, o.shape, o.dtype));
    j["cost_estimate"] =
        r.costEstimateUs >= 0
            ? nlohmann::ordered_json{{"total_us", r.costEstimateUs}, {"trace", kTraceFile}}
            : nlohmann::ordered_json();
    j["cost"] = r.cost;
    return writeAtomically((fs::path(dir) / "run.json").string(), {j.dump(2), "\n"});
}

std::string prepareCase(const std::string& dir, const OpSpec& spec,
                        const std::vector<Tensor>& inputs, const std::vector<rules::Value>& params,
                        const RunRecord& record)
{
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "inputs", ec);
    fs::create_directories(outputsDir(dir), ec);
    if (ec) return "cannot create " + dir + ": " + ec.message();
    // A previous run's outputs must not pass for this run's.
    for (const auto& name : spec.resultNames())
        fs::remove(outputPath(dir, name), ec);
    for (std::size_t k = 0; k < inputs.size(); ++k)
        if (std::string e = writeNpy(inputPath(dir, spec.inputs[k].name), inputs[k]); !e.empty())
            return e;
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < params.size() && k < spec.params.size(); ++k)
        p[spec.params[k].name] = paramValueToJson(params[k]);
    if (std::string e =
            writeAtomically((fs::path(dir) / "params.json").string(), {p.dump(2), "\n"});
        !e.empty())
        return e;
    return writeRecord(dir, record);
}

std::string writeOutputs(const std::string& dir, const OpSpec& spec,
                         const std::vector<Tensor>& outputs)
{
    const std::vector<std::string> names = spec.resultNames();
    for (std::size_t k = 0; k < outputs.size() && k < names.size(); ++k)
        if (std::string e = writeNpy(outputPath(dir, names[k]), outputs[k]); !e.empty()) return e;
    return {};
}

std::variant<std::vector<Tensor>, std::string>
readOutputs(const std::string& dir, const OpSpec& spec, const std::vector<InferredOutput>& expected,
            const std::set<std::string>& absent)
{
    std::vector<Tensor> outputs;
    const std::vector<std::string> names = spec.resultNames();
    for (std::size_t k = 0; k < names.size(); ++k) {
        const std::string& name = names[k];
        const fs::path file = fs::path(outputPath(dir, name));
        // What a runner left is checked before it is opened: a FIFO would block the read, a
        // symlink could point anywhere, and a file larger than the expected output is not read
        // (a smaller one is, for readNpy's precise message).
        std::error_code ec;
        const fs::file_status status = fs::symlink_status(file, ec);
        if (!fs::exists(status) && absent.count(name)) {
            outputs.emplace_back();
            continue;
        }
        if (!fs::exists(status))
            return "output '" + name + "' was not written (expected outputs/" + name + ".npy)";
        if (!fs::is_regular_file(status))
            return "output '" + name + "': outputs/" + name + ".npy is not a regular file";
        if (k < expected.size()) {
            const std::uint64_t size = fs::file_size(file, ec);
            const std::uint64_t data =
                std::uint64_t(std::max<std::int64_t>(elementCount(expected[k].shape), 0)) *
                std::uint64_t(dtypeInfo(expected[k].dtype).itemSize);
            if (ec || size > data + 12 + kMaxNpyHeaderBytes)
                return "output '" + name + "' is " + std::to_string(size) + " bytes, more than " +
                       std::string(dtypeName(expected[k].dtype)) +
                       shapefn::toString(expected[k].shape) + " needs (" + std::to_string(data) +
                       " bytes of data and a header)";
        }
        auto read = readNpy(file.string());
        if (auto* e = std::get_if<std::string>(&read))
            return "output '" + name + "' is unreadable: " + *e;
        Tensor& t = std::get<Tensor>(read);
        if (k < expected.size())
            if (const std::string mismatch = mismatchWithRules(t, expected[k]); !mismatch.empty())
                return "output '" + name + "' is " + mismatch;
        outputs.push_back(std::move(t));
    }
    return outputs;
}

int pruneRuns(const std::string& runsRoot, std::size_t keep)
{
    static const std::regex kRunId(R"(^[0-9]{8}-[0-9]{6}-.+$)");
    std::vector<std::pair<fs::file_time_type, fs::path>> runs;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(runsRoot, ec))
        if (entry.is_directory(ec) && std::regex_match(entry.path().filename().string(), kRunId))
            runs.emplace_back(entry.last_write_time(ec), entry.path());
    if (runs.size() <= keep) return 0;
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
        return a.first > b.first || (a.first == b.first && a.second > b.second);
    });
    int removed = 0;
    for (std::size_t k = keep; k < runs.size(); ++k)
        if (fs::remove_all(runs[k].second, ec) > 0 && !ec) ++removed;
    return removed;
}

nlohmann::ordered_json readCost(const std::string& caseDir)
{
    // run.json is small; a larger one is not a run folder's.
    constexpr std::uintmax_t kMaxRecordBytes = std::uintmax_t(16) << 20;
    const fs::path path = fs::path(caseDir) / "run.json";
    std::error_code ec;
    if (fs::symlink_status(path, ec).type() != fs::file_type::regular ||
        fs::file_size(path, ec) > kMaxRecordBytes || ec)
        return nullptr;
    std::ifstream in(path, std::ios::binary);
    const auto record = nlohmann::ordered_json::parse(in, nullptr, false);
    if (!record.is_object() || !record.contains("cost") || !record["cost"].is_object())
        return nullptr;
    return record["cost"];
}

std::string latestCaseDir(const std::string& runsRoot, const std::string& backend,
                          const std::string& caseName)
{
    static const std::regex kRunId(R"(^[0-9]{8}-[0-9]{6}-.+$)");
    const std::string suffix = "-" + backend;
    std::string newest, found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(runsRoot, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.symlink_status(ec).type() != fs::file_type::directory ||
            !std::regex_match(name, kRunId) || name.size() <= suffix.size() ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const fs::path record = entry.path() / caseName / "run.json";
        if (fs::symlink_status(entry.path() / caseName, ec).type() != fs::file_type::directory ||
            fs::symlink_status(record, ec).type() != fs::file_type::regular)
            continue;
        // Run ids begin with their time, so the greatest name is the newest run.
        if (name > newest) {
            newest = name;
            found = (entry.path() / caseName).string();
        }
    }
    return found;
}

std::string inputPath(const std::string& caseDir, const std::string& input)
{
    return (std::filesystem::path(caseDir) / "inputs" / (input + ".npy")).string();
}

std::string outputPath(const std::string& caseDir, const std::string& output)
{
    return (std::filesystem::path(caseDir) / "outputs" / (output + ".npy")).string();
}

std::string outputsDir(const std::string& caseDir)
{
    return (std::filesystem::path(caseDir) / "outputs").string();
}

std::string tracePath(const std::string& caseDir)
{
    return (std::filesystem::path(caseDir) / kTraceFile).string();
}

std::string capturePath(const std::string& caseDir, int line, const std::string& name,
                        int execution)
{
    return (std::filesystem::path(caseDir) / "captures" /
            ("L" + std::to_string(line) + "_" + name + "@" + std::to_string(execution) + ".npy"))
        .string();
}

std::vector<CaptureFile> listCaptures(const std::string& caseDir)
{
    std::vector<CaptureFile> captures;
    std::error_code ec;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(caseDir) / "captures", ec)) {
        const std::string file = entry.path().filename().string();
        static const std::regex kCapture(
            R"(^L([0-9]{1,9})_([A-Za-z_][A-Za-z0-9_]*)@([0-9]{1,9})\.npy$)");
        std::smatch m;
        if (!entry.is_regular_file(ec) || !std::regex_match(file, m, kCapture)) continue;
        captures.push_back(
            {std::stoi(m[1].str()), m[2].str(), std::stoi(m[3].str()), entry.path().string()});
    }
    std::sort(captures.begin(), captures.end(), [](const CaptureFile& a, const CaptureFile& b) {
        return std::tie(a.line, a.execution) < std::tie(b.line, b.execution);
    });
    return captures;
}

} // namespace runfolder
} // namespace ptowb
