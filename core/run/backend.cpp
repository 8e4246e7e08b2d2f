#include "run/backend.h"

#include "diag/suggest.h"
#include "reference/reference_checker.h"
#include "run/process_runner.h"
#include "run/pypto_backend.h"
#include "run/sim_backend.h"
#include "spec/inference.h"
#include "worker_client/worker_client.h"

#include "json/json_document.h"
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <span>

namespace ptowb {

std::string workerFailureStatus(const nlohmann::json& answer)
{
    const std::string code = answer.value("code", "");
    return code == "sim.timeout"     ? "timeout"
           : code == "sim.cancelled" ? "cancelled"
           : code == "sim.crashed"   ? "crashed"
                                     : "error";
}

nlohmann::json inputShapesJson(const RunRecord& record)
{
    nlohmann::json shapes = nlohmann::json::object();
    for (const InferredOutput& input : record.inputs)
        shapes[input.name] = {{"shape", input.shape}, {"dtype", dtypeName(input.dtype)}};
    return shapes;
}

RunRecord readWorkerOutputs(const std::string& caseDir, const OpSpec& spec, RunRecord record,
                            std::vector<Tensor>& outputs, const std::set<std::string>& absent)
{
    auto read = runfolder::readOutputs(caseDir, spec, record.expectedOutputs, absent);
    if (auto* e = std::get_if<std::string>(&read)) {
        record.status = "error";
        record.error = *e;
        return record;
    }
    outputs = std::move(std::get<std::vector<Tensor>>(read));
    record.status = "ok";
    return record;
}

namespace {

// A case whose op.json gives every result's expected value (recorded from a test): those files
// are the reference's results, put where a reference run writes them; a result the case leaves
// unchecked has none. Null when the case does not give them all.
std::optional<RunRecord> recordedExpected(const OpSpec& spec, const std::string& projectDir,
                                          const std::string& caseDir, RunRecord record,
                                          std::vector<Tensor>& outputs)
{
    const auto it = std::find_if(spec.cases.begin(), spec.cases.end(),
                                 [&](const CaseSpec& c) { return c.name == record.caseName; });
    if (it == spec.cases.end() || !it->expectsEveryResult(spec.resultNames())) return std::nullopt;
    for (const auto& [result, file] : it->expected) {
        std::error_code ec;
        const std::filesystem::path target = runfolder::outputPath(caseDir, result);
        std::filesystem::create_directories(target.parent_path(), ec);
        std::filesystem::copy_file(std::filesystem::path(projectDir) / file, target,
                                   std::filesystem::copy_options::overwrite_existing, ec);
        if (ec) {
            record.status = "error";
            record.error = "op.json's expected value for '" + result + "' (" + file +
                           ") cannot be read: " + ec.message();
            return record;
        }
    }
    record = readWorkerOutputs(caseDir, spec, record, outputs, it->unchecked);
    if (!record.error.empty())
        record.error =
            "op.json's expected values of case '" + record.caseName + "': " + record.error;
    return record;
}

} // namespace

RunRecord ReferenceBackend::run(const OpSpec& spec, const std::vector<Tensor>&,
                                const std::vector<rules::Value>& params, const std::string& caseDir,
                                RunRecord record, std::vector<Tensor>& outputs,
                                const std::atomic<bool>* cancel)
{
    if (auto recorded = recordedExpected(spec, m_sources.projectDir, caseDir, record, outputs))
        return *recorded;
    nlohmann::json request = {{"op", "reference"},
                              {"subject", "the reference"},
                              {"case_dir", caseDir},
                              {"reference_source", m_sources.reference},
                              {"reference_file", m_sources.referenceFile},
                              {"op_json", m_sources.opJson},
                              {"op_json_file", m_sources.opJsonFile},
                              {"project_dir", m_sources.projectDir}};
    request["input_shapes"] = inputShapesJson(record);
    request["params"] = nlohmann::json::object();
    for (std::size_t k = 0; k < params.size() && k < spec.params.size(); ++k)
        request["params"][spec.params[k].name] = paramValueToJson(params[k]);
    request["outputs"] = nlohmann::json::array(); // the outputs; the program adds mutated inputs
    for (const auto& o : std::span(record.expectedOutputs)
                             .first(std::min(record.expectedOutputs.size(), spec.outputs.size())))
        request["outputs"].push_back(
            {{"name", o.name}, {"shape", o.shape}, {"dtype", dtypeName(o.dtype)}});

    const auto start = std::chrono::steady_clock::now();
    const nlohmann::json answer =
        worker::WorkerClient::shared().call(request, m_timeoutSeconds, cancel);
    record.durationSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.interpreter = worker::WorkerClient::shared().interpreter();
    if (answer.value("status", "") != "ok") {
        record.status = workerFailureStatus(answer);
        const std::string code = answer.value("code", "");
        const std::string message = answer.value("message", "the reference failed");
        record.error = answer.contains("line") || code.rfind("sim.", 0) == 0
                           ? m_sources.referenceFile + ":" +
                                 std::to_string(answer.value("line", 1)) + ":1: error: " + message
                           : message;
        if (answer.contains("line")) {
            Diagnostic d;
            d.file = m_sources.referenceFile;
            d.line = d.endLine = answer.value("line", 1);
            d.col = 1;
            d.endCol = 2;
            d.code = code.empty() ? "ref.error" : code;
            d.message = message;
            record.diagnostics = {std::move(d)};
        }
        if (code == "ref.output" && answer.contains("output")) {
            // The rule and the reference disagree: either may be wrong, and a rule that is
            // valid but says something else is op.json's line to fix, so that is reported first.
            const JsonDocument doc = JsonDocument::parse(m_sources.opJson, m_sources.opJsonFile);
            const std::string field = answer.value("rule", "shape");
            Diagnostic rule = doc.diagnostic(
                "/outputs/" + std::to_string(answer.value("output", 0)) + "/" + field,
                Severity::Error, "spec.output-rule",
                "this " + field + " rule disagrees with the reference: " + message +
                    "; fix the rule or the reference");
            record.error = formatDiagnostic(rule);
            record.diagnostics.insert(record.diagnostics.begin(), std::move(rule));
        }
        return record;
    }
    return readWorkerOutputs(caseDir, spec, std::move(record), outputs);
}

bool recordProcessOutcome(const ProcessOutcome& p, const std::string& who, double timeoutSeconds,
                          RunRecord& record)
{
    record.durationSeconds = p.seconds;
    record.exitCode = p.exitCode;
    record.stderrTail = p.stderrTail;
    switch (p.status) {
    case ProcessOutcome::Status::FailedToStart:
        record.status = "error";
        record.error = who + ": " + p.error;
        return false;
    case ProcessOutcome::Status::TimedOut:
        record.status = "timeout";
        record.error = who + " did not finish within " + std::to_string(int(timeoutSeconds)) +
                       " s and was stopped";
        return false;
    case ProcessOutcome::Status::Cancelled:
        record.status = "cancelled";
        record.error = who + " was cancelled";
        return false;
    case ProcessOutcome::Status::Crashed:
        record.status = "crashed";
        record.error = who + " crashed";
        return false;
    case ProcessOutcome::Status::Finished:
        break;
    }
    return true;
}

RunRecord ExternalBackend::run(const OpSpec& spec, const std::vector<Tensor>&,
                               const std::vector<rules::Value>&, const std::string& caseDir,
                               RunRecord record, std::vector<Tensor>& outputs,
                               const std::atomic<bool>* cancel)
{
    const std::map<std::string, std::string> values{
        {"run_dir", caseDir},
        {"case", record.caseName},
        {"project", m_projectDir},
        {"op", spec.name},
        {"kernel", (std::filesystem::path(m_projectDir) / spec.kernel.file).string()},
        {"function", spec.kernel.function},
        {"made_by", spec.kernel.madeBy},
        {"made_with", spec.kernel.madeWithJson},
    };
    std::vector<std::string> argv = expandCommand(m_runner, values);
    // A relative program path means one next to the runners.json that named it.
    if (!argv.empty() && argv.front().find('/') != std::string::npos &&
        std::filesystem::path(argv.front()).is_relative())
        argv.front() = std::filesystem::absolute(
                           std::filesystem::path(m_runner.sourceFile).parent_path() / argv.front())
                           .string();

    const ProcessOutcome p = runProcess(argv, caseDir, m_runner.timeoutSeconds, cancel);
    const std::string who = "runner '" + m_runner.name + "'";
    if (!recordProcessOutcome(p, who, m_runner.timeoutSeconds, record)) return record;
    if (p.exitCode != 0) {
        record.status = "error";
        record.error = who + " exited with status " + std::to_string(p.exitCode);
        return record;
    }
    auto read = runfolder::readOutputs(caseDir, spec, record.expectedOutputs);
    if (auto* e = std::get_if<std::string>(&read)) {
        record.status = "error";
        record.error = who + ": " + *e;
        return record;
    }
    outputs = std::move(std::get<std::vector<Tensor>>(read));
    record.status = "ok";
    return record;
}

namespace {

struct BuiltinTarget
{
    const char* name;
    const char* description;
    bool producesValues;
};
// Every backend verify can target besides the runners; makeBackend makes each of them.
constexpr BuiltinTarget kBuiltinTargets[] = {
    {"sim", "the built-in simulator: outputs, our cost estimate and every line's value", true},
    {"pypto-sim", "the real PyPTO's CostModel (RunMode.SIM): its cycles, no values", false},
    {"npu", "the real PyPTO on an NPU (RunMode.NPU) through torch_npu", true},
};

} // namespace

std::vector<VerifyTarget> verifyTargets(const RunnerConfigs& runners)
{
    std::vector<VerifyTarget> targets;
    for (const BuiltinTarget& builtin : kBuiltinTargets) {
        VerifyTarget target{builtin.name, builtin.description, {}, builtin.producesValues};
        const std::string name = builtin.name;
        if (name != "sim") {
            std::string python;
            target.unavailable =
                pyptoUnavailable(name == "npu" ? PyptoBackend::Mode::Npu : PyptoBackend::Mode::Sim,
                                 worker::WorkerClient::chosenPython(), python);
        }
        targets.push_back(std::move(target));
    }
    for (const RunnerConfig& runner : runners.runners)
        targets.push_back(
            {runner.name, runner.kind + " runner from " + runner.sourceFile, {}, true});
    return targets;
}

BackendChoice makeBackend(const std::string& name, const OpSpec& spec, const ProjectTexts& texts,
                          const RunnerConfigs& runners, const SimRunOptions& simOptions)
{
    BackendChoice choice;
    const std::string& projectDir = texts.dir;
    if (name == "sim" || name == "ref") {
        const std::string path = (std::filesystem::path(projectDir) /
                                  (name == "sim" ? spec.kernel.file : spec.reference.file))
                                     .string();
        if (name == "sim") {
            choice.backend = std::make_unique<SimBackend>(texts.kernel, path, simOptions);
            return choice;
        }
        // Checked by the reference checker (compiling runs nothing, but may crash), then
        // compiled again and run by the worker.
        choice.diagnostics = checkReferenceBounded(spec, texts.reference, path);
        if (hasErrors(choice.diagnostics)) {
            choice.error = "the reference does not compile";
            return choice;
        }
        const std::string opJsonFile = (std::filesystem::path(projectDir) / "op.json").string();
        choice.backend = std::make_unique<ReferenceBackend>(
            ReferenceSources{texts.reference, path, texts.opJson, opJsonFile, projectDir},
            simOptions.timeoutSeconds);
        return choice;
    }
    if (name == "pypto-sim" || name == "npu") {
        const auto mode = name == "npu" ? PyptoBackend::Mode::Npu : PyptoBackend::Mode::Sim;
        std::string python;
        choice.error = pyptoUnavailable(mode, worker::WorkerClient::chosenPython(), python);
        if (choice.error.empty())
            choice.backend = std::make_unique<PyptoBackend>(
                mode, texts.kernel, (std::filesystem::path(projectDir) / spec.kernel.file).string(),
                simOptions, python);
        return choice;
    }
    if (const RunnerConfig* runner = runners.find(name)) {
        choice.backend = std::make_unique<ExternalBackend>(*runner, projectDir);
        return choice;
    }
    std::vector<std::string> known{"ref"};
    for (const auto& builtin : kBuiltinTargets)
        known.push_back(builtin.name);
    for (const auto& n : runners.names())
        known.push_back(n);
    choice.error = "no backend named '" + name + "'" + didYouMean(name, known) +
                   " (available: " + joinQuoted(known) + "; runners come from runners.json)";
    return choice;
}

} // namespace ptowb
