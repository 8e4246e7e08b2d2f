#include "run/sim_backend.h"

#include "io/atomic_write.h"
#include "tensor/npy.h"

#include <chrono>
#include <filesystem>
#include <map>

namespace ptowb {

RunRecord SimBackend::run(const OpSpec& spec, const std::vector<Tensor>& inputs, const std::vector<rules::Value>& params, const std::string& caseDir,
                          RunRecord record, std::vector<Tensor>& outputs, const std::atomic<bool>*)
{
    const auto start = std::chrono::steady_clock::now();
    SimOutcome outcome = simulateKernel(spec, m_source, m_file, inputs, params, m_options);
    record.durationSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (hasErrors(outcome.diagnostics)) {
        record.status = "error";
        for (const Diagnostic& d : outcome.diagnostics)
            if (d.isError()) record.error += (record.error.empty() ? "" : "\n") + formatDiagnostic(d);
        return record;
    }
    if (!m_options.platformFile.empty()) {
        record.costEstimateUs = outcome.cost.totalUs;
        if (std::string e = writeAtomically((std::filesystem::path(caseDir) / "trace.json").string(), {outcome.cost.traceJson(spec.kernel.function)});
            !e.empty()) {
            record.status = "error";
            record.error = e;
            return record;
        }
    }
    if (m_options.capture) {
        std::map<std::string, const SimCapture*> last; // a loop assigns a line many times; keep its final value
        for (const SimCapture& c : outcome.captures) last[runfolder::capturePath(caseDir, c.line, c.name)] = &c;
        std::filesystem::create_directories(std::filesystem::path(caseDir) / "captures");
        for (const auto& [path, capture] : last)
            if (std::string e = writeNpy(path, capture->value); !e.empty()) {
                record.status = "error";
                record.error = e;
                return record;
            }
    }
    outputs = std::move(outcome.outputs);
    return recordOutputs(caseDir, spec, outputs, std::move(record));
}

} // namespace ptowb
