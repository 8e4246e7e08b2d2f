#include "run/pypto_backend.h"

#include "cost/pypto_line_cycles.h"
#include "cost/pypto_report.h"
#include "interpreter/interpreter.h"
#include "io/atomic_write.h"
#include "run/process_runner.h"
#include "run/sim_backend.h"
#include "worker_client/worker_client.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDriver = "ptowb_pypto_run.py";
constexpr const char* kRequestFile = "pypto_request.json";
constexpr const char* kAnswerFile = "pypto_answer.json";
// PyPTO's answer and report are small; anything larger is not theirs.
constexpr std::uintmax_t kMaxReadBytes = std::uintmax_t(16) << 20;
// Its program and pipe swimlane grow with the kernel's tiles; past this the lines are not mapped.
constexpr std::uintmax_t kMaxSwimlaneBytes = std::uintmax_t(256) << 20;

std::string readSmallFile(const fs::path& path, std::uintmax_t limit = kMaxReadBytes)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > limit) return {};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string relativeTo(const fs::path& path, const fs::path& base)
{
    return path.lexically_relative(base).generic_string();
}

Diagnostic rejection(const nlohmann::json& answer, const std::string& file)
{
    Diagnostic d;
    d.file = file;
    d.line = answer.value("line", 1);
    d.col = answer.value("col", 1);
    d.endLine = answer.value("end_line", d.line);
    d.endCol = answer.value("end_col", d.col);
    d.code = answer.value("code", "pypto.rejected");
    d.message = answer.value("message", "PyPTO rejected the kernel");
    return d;
}

// PyPTO 0.2.0 compiles into its output folder with g++ through a shell, the path unquoted: a
// path with a space or a shell character fails ("input file '/tmp/PTO' is the same as output
// file"), and the app's sample copies live in "Documents/PTO Workbench". Such a case's output is
// written in a scratch folder of the system's temporary folder and moved into the case's after.
bool shellSafe(const std::string& path)
{
    return path.find_first_of(" \t\n'\"\\$`;&|<>(){}*?[]#~!") == std::string::npos;
}

class PyptoOutputFolder
{
public:
    explicit PyptoOutputFolder(fs::path caseOutput) : m_final(std::move(caseOutput))
    {
        if (shellSafe(m_final.string())) return;
        std::error_code ec;
        std::string pattern = (fs::temp_directory_path(ec) / "ptowb-pypto-XXXXXX").string();
        if (ec || !shellSafe(pattern) || !mkdtemp(pattern.data())) {
            m_error = "PyPTO cannot write its output under " + m_final.string() +
                      " (its compiler is given the path unquoted, and it has a space or a shell "
                      "character), nor under the temporary folder: set TMPDIR to a folder "
                      "without one";
            return;
        }
        m_scratch = pattern;
    }
    ~PyptoOutputFolder()
    {
        std::error_code ec;
        if (!m_scratch.empty()) fs::remove_all(m_scratch, ec);
    }
    PyptoOutputFolder(const PyptoOutputFolder&) = delete;
    PyptoOutputFolder& operator=(const PyptoOutputFolder&) = delete;

    const std::string& error() const { return m_error; }
    // Where PyPTO writes.
    fs::path path() const { return m_scratch.empty() ? m_final : m_scratch; }
    // Moves what PyPTO wrote into the case folder, and the answer's "output" with it.
    void keep(nlohmann::json& answer)
    {
        if (m_scratch.empty()) return;
        std::error_code ec;
        fs::remove_all(m_final, ec);
        fs::rename(m_scratch, m_final, ec);
        if (ec) { // another file system
            ec.clear();
            fs::copy(m_scratch, m_final, fs::copy_options::recursive, ec);
        }
        if (answer.is_object() && answer.contains("output") && answer["output"].is_string()) {
            const fs::path output = answer["output"].get<std::string>();
            const fs::path inside = output.lexically_normal().lexically_relative(m_scratch);
            if (!inside.empty() && *inside.begin() != "..")
                answer["output"] = (m_final / inside).string();
        }
    }

private:
    fs::path m_final, m_scratch;
    std::string m_error;
};

} // namespace

std::string pyptoUnavailable(PyptoBackend::Mode mode, const std::string& chosen,
                             std::string& python)
{
    auto found = interpreter::kernelInterpreter(chosen);
    if (auto* e = std::get_if<std::string>(&found)) return *e;
    const interpreter::Interpreter& it = std::get<interpreter::Interpreter>(found);
    const bool npu = mode == PyptoBackend::Mode::Npu;
    const std::string how = " (choose one with --python, PTOWB_PYTHON or Settings > Python "
                            "interpreter)";
    if (it.pypto.empty())
        return std::string("the backend ") + (npu ? "npu" : "pypto-sim") +
               " runs the real PyPTO package, and the Python interpreter " + it.path +
               " has none (install it there with `pip install pypto`, or choose one that has it "
               "with --python, PTOWB_PYTHON or Settings > Python interpreter)";
    if (npu && it.torchNpu.empty())
        return "the backend npu runs PyPTO on an NPU through torch_npu, and the Python "
               "interpreter " +
               it.path + " has no torch_npu: this is no NPU host, or not its Python" + how;
    python = it.path;
    return {};
}

RunRecord PyptoBackend::run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                            const std::vector<rules::Value>& params, const std::string& caseDir,
                            RunRecord record, std::vector<Tensor>& outputs,
                            const std::atomic<bool>* cancel)
{
    auto built =
        kernelRunRequest(spec, inputs, params, caseDir, record, m_source, m_file, m_options);
    if (auto* e = std::get_if<std::string>(&built)) {
        record.status = "error";
        record.error = *e;
        return record;
    }
    const fs::path dir(caseDir);
    PyptoOutputFolder output(dir / kPyptoOutputFolder);
    if (!output.error().empty()) {
        record.status = "error";
        record.error = output.error();
        return record;
    }
    const fs::path outputRoot = output.path();
    const fs::path answerPath = dir / kAnswerFile;
    // A previous run's output must not pass for this one's.
    std::error_code ec;
    fs::remove_all(dir / kPyptoOutputFolder, ec);
    fs::remove(answerPath, ec);
    nlohmann::json request = std::move(std::get<nlohmann::json>(built));
    request["run_mode"] = m_mode == Mode::Npu ? "npu" : "sim";
    request["output_dir"] = outputRoot.string();
    request["result_file"] = answerPath.string();
    request["memory_limit_mb"] = worker::WorkerClient::defaultMemoryLimitMb();
    const std::string requestPath = (dir / kRequestFile).string();
    if (std::string e = writeAtomically(requestPath, {request.dump()}); !e.empty()) {
        record.status = "error";
        record.error = e;
        return record;
    }
    const std::string driver =
        (fs::path(interpreter::workerLibDir()) / "python" / kDriver).string();
    // -E -B, as the kernel worker: PYTHONPATH and PYTHONHOME choose nothing, and no bytecode is
    // written beside the author's files; the driver takes its own folder off the import path and
    // adds the kernel's folder last.
    const std::vector<std::string> argv{m_python, "-E", "-B", driver, requestPath};
    ProcessOutcome p = runProcess(argv, caseDir, m_options.timeoutSeconds, cancel);
    // PyPTO 0.2.0 now and then corrupts its heap and aborts, the same case running the next time:
    // a crash before any answer runs the case once more.
    if (p.status == ProcessOutcome::Status::Crashed && !fs::exists(answerPath, ec)) {
        fs::remove_all(outputRoot, ec);
        p = runProcess(argv, caseDir, m_options.timeoutSeconds, cancel);
    }
    record.interpreter = {{"executable", m_python}};
    nlohmann::json answer = nlohmann::json::parse(readSmallFile(answerPath), nullptr, false);
    output.keep(answer);
    // PyPTO 0.2.0 sometimes corrupts its heap and aborts after its work is done and the answer
    // written: that answer stands.
    const bool answered = answer.is_object() && answer.value("status", "") == "ok";
    if (!recordProcessOutcome(p, "PyPTO (" + m_python + ")", m_options.timeoutSeconds, record) &&
        !(record.status == "crashed" && answered))
        return record;
    if (!answer.is_object()) {
        record.status = "error";
        record.error = "PyPTO (" + m_python + ") exited with status " + std::to_string(p.exitCode) +
                       " and no answer; see stderr.log in " + caseDir;
        return record;
    }
    if (answer.contains("pypto")) record.interpreter["pypto"] = answer["pypto"];
    if (answer.value("status", "") != "ok") {
        record.status = "error";
        if (answer.contains("line")) {
            record.diagnostics = {rejection(answer, m_file)};
            record.error = formatDiagnostic(record.diagnostics.front());
        } else {
            record.error = answer.value("message", "PyPTO failed");
        }
        return record;
    }
    record.error.clear(); // an abort after the answer was written
    if (m_mode == Mode::Npu) return readWorkerOutputs(caseDir, spec, std::move(record), outputs);
    if (!readCostModel(answer, caseDir, record)) return record;
    record.status = "ok";
    return record;
}

bool PyptoBackend::readCostModel(const nlohmann::json& answer, const std::string& caseDir,
                                 RunRecord& record) const
{
    const fs::path dir(caseDir);
    const fs::path outputRoot = (dir / kPyptoOutputFolder).lexically_normal();
    // The driver names PyPTO's output folder: one directly inside the case's, never elsewhere.
    std::error_code ec;
    fs::path output = fs::path(answer.value("output", "")).lexically_normal();
    if (output.parent_path() != outputRoot ||
        fs::symlink_status(output, ec).type() != fs::file_type::directory)
        output.clear();
    const auto parsed =
        output.empty() ? std::nullopt
                       : cost::parsePyptoReport(readSmallFile(output / cost::kPyptoReportFile));
    if (!parsed) {
        record.status = "error";
        record.error = "PyPTO ran the kernel but wrote no cost report (" +
                       std::string(cost::kPyptoReportFile) + ") under " + outputRoot.string();
        return false;
    }
    record.cost = {{"source", "pypto " + answer.value("pypto", std::string())},
                   {"run_mode", "sim"},
                   {"total_cycles", parsed->totalCycles},
                   {"pipes", cost::pipesJson(parsed->pipes)},
                   {"report", relativeTo(output / cost::kPyptoReportFile, dir)},
                   {"swimlane", relativeTo(output / cost::kPyptoSwimlaneFile, dir)}};
    // Per kernel line where the swimlane allows; a run without it still has its totals.
    auto lines = cost::mapPyptoCyclesToLines(
        readSmallFile(output / cost::kPyptoProgramFile, kMaxSwimlaneBytes),
        readSmallFile(output / cost::kPyptoPipeSwimlaneFile, kMaxSwimlaneBytes), m_file);
    if (auto* map = std::get_if<cost::PyptoLineMap>(&lines)) {
        record.cost["lines"] = cost::lineCyclesJson(*map);
        record.cost["unmapped_busy_cycles"] = map->unmappedCycles;
    } else {
        record.cost["lines_unmapped_because"] = std::get<std::string>(lines);
    }
    return true;
}

} // namespace ptowb
