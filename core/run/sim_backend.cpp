#include "run/sim_backend.h"

#include "cost/cost_model.h"
#include "io/atomic_write.h"
#include "run_folder/run_folder.h"
#include "spec/inference.h"
#include "spec/kernel_arguments.h"
#include "worker_client/worker_client.h"

#include <chrono>
#include <cmath>
#include <filesystem>

namespace ptowb {

namespace {

Diagnostic kernelDiagnostic(const nlohmann::json& answer, const std::string& file)
{
    Diagnostic d;
    d.file = file;
    d.line = answer.value("line", 1);
    d.col = answer.value("col", 1);
    d.endLine = answer.value("end_line", d.line);
    d.endCol = answer.value("end_col", d.col);
    d.code = answer.value("code", "sim.error");
    d.message = answer.value("message", "the kernel failed");
    return d;
}

std::string kernelError(const nlohmann::json& answer, const std::string& file)
{
    std::string text = formatDiagnostic(kernelDiagnostic(answer, file));
    if (const std::string tb = answer.value("traceback", "");
        !tb.empty() && tb.find('\n') != std::string::npos)
        text += "\n" + tb;
    return text;
}

// run.json's "cost" of our own estimate, in the target's cycles like PyPTO's: the total (the
// platform's launch cost and the elapsed time, loop iterations overlapped as the platform says),
// and the cycles of each unit (vector, cube, memory, scalar) summed over the kernel's lines.
nlohmann::ordered_json ptowbCost(const std::string& platformFile, double totalUs,
                                 const std::string& trace)
{
    std::string error;
    const cost::Platform platform = cost::loadPlatform(platformFile, error);
    if (!error.empty()) return nullptr;
    const double cyclesPerUs = platform.clockGHz * 1000;
    nlohmann::ordered_json units = nlohmann::ordered_json::object();
    double unitUs[4] = {0, 0, 0, 0};
    for (const cost::LineCost& line : cost::costReportFromTrace(trace).byLine())
        for (int u = 0; u < 4; ++u)
            unitUs[u] += line.unitUs[u];
    for (int u = 0; u < 4; ++u)
        units[cost::unitName(cost::UnitKind(u))] = std::llround(unitUs[u] * cyclesPerUs);
    const long long launch = std::llround(platform.launchCycles);
    return nlohmann::ordered_json{{"source", "ptowb"},
                                  {"soc", platform.name},
                                  {"total_cycles", launch + std::llround(totalUs * cyclesPerUs)},
                                  {"launch_cycles", launch},
                                  {"unit_cycles", units}};
}

} // namespace

std::variant<nlohmann::json, std::string>
kernelRunRequest(const OpSpec& spec, const std::vector<Tensor>& inputs,
                 const std::vector<rules::Value>& params, const std::string& caseDir,
                 const RunRecord& record, const std::string& source, const std::string& file,
                 const SimRunOptions& options)
{
    nlohmann::json request = {{"op", "run"},
                              {"case_dir", caseDir},
                              {"kernel_file", file},
                              {"source", source},
                              {"function", spec.kernel.function},
                              {"made_by", spec.kernel.madeBy},
                              {"capture", options.capture},
                              {"platform_file", options.platformFile}};
    if (!spec.kernel.madeWithJson.empty())
        request["made_with"] = nlohmann::json::parse(spec.kernel.madeWithJson);
    request["inputs"] = nlohmann::json::array();
    for (const auto& input : spec.inputs)
        request["inputs"].push_back(input.name);
    request["input_shapes"] = inputShapesJson(record);
    request["outputs"] = nlohmann::json::array();
    for (std::size_t k = 0; k < record.expectedOutputs.size() && k < spec.outputs.size(); ++k) {
        const auto& o = record.expectedOutputs[k];
        nlohmann::json out = {{"name", o.name}, {"shape", o.shape}, {"dtype", dtypeName(o.dtype)}};
        if (k < spec.outputs.size() && spec.outputs[k].init) out["init"] = *spec.outputs[k].init;
        request["outputs"].push_back(std::move(out));
    }
    request["mutated"] = nlohmann::json::array(); // written back to outputs/ after the call
    for (std::size_t k : spec.mutatedInputs())
        request["mutated"].push_back(spec.inputs[k].name);
    request["params"] = nlohmann::json::object();
    for (std::size_t k = 0; k < params.size() && k < spec.params.size(); ++k)
        request["params"][spec.params[k].name] = paramValueToJson(params[k]);
    std::vector<rules::TensorInfo> infos;
    for (const Tensor& t : inputs)
        infos.push_back({t.shape(), t.dtype()});
    auto arguments = kernelArgumentsJson(spec, infos, params);
    if (auto* e = std::get_if<std::string>(&arguments)) return *e;
    request["arguments"] = std::move(std::get<nlohmann::json>(arguments));
    return request;
}

RunRecord SimBackend::run(const OpSpec& spec, const std::vector<Tensor>& inputs,
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
    const auto start = std::chrono::steady_clock::now();
    const nlohmann::json answer = worker::WorkerClient::shared().call(
        std::get<nlohmann::json>(built), m_options.timeoutSeconds, cancel);
    record.durationSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record.interpreter = worker::WorkerClient::shared().interpreter();
    record.stderrTail = answer.value("log", ""); // the kernel's print output
    if (answer.value("status", "") != "ok") {
        record.status = workerFailureStatus(answer);
        record.error = kernelError(answer, m_file);
        if (answer.contains("line")) record.diagnostics = {kernelDiagnostic(answer, m_file)};
        return record;
    }
    if (answer.contains("trace")) {
        record.costEstimateUs = answer.value("cost_total_us", 0.0);
        const std::string& trace = answer["trace"].get_ref<const std::string&>();
        record.cost = ptowbCost(m_options.platformFile, record.costEstimateUs, trace);
        if (std::string e = writeAtomically(runfolder::tracePath(caseDir), {trace}); !e.empty()) {
            record.status = "error";
            record.error = e;
            return record;
        }
    }
    return readWorkerOutputs(caseDir, spec, std::move(record), outputs);
}

} // namespace ptowb
