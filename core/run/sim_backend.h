#pragma once

#include "run/backend.h"

#include <nlohmann/json.hpp>
#include <variant>

namespace ptowb {

// The request that runs one case of the kernel: what the kernel worker takes, and what the
// driver of the real PyPTO (run/pypto_backend.h) reads. The reason when the case's kernel
// arguments do not evaluate.
std::variant<nlohmann::json, std::string>
kernelRunRequest(const OpSpec& spec, const std::vector<Tensor>& inputs,
                 const std::vector<rules::Value>& params, const std::string& caseDir,
                 const RunRecord& record, const std::string& source, const std::string& file,
                 const SimRunOptions& options);

// `sim`: the kernel file run as Python by the kernel worker process with the workbench's `pypto`
// module (worker/kernel_worker.h). With a platform it also writes the case's cost estimate into
// run.json and its trace into trace.json; with capture, the last value each kernel line computed
// into captures/L<line>_<op>.npy.
class SimBackend : public Backend
{
public:
    SimBackend(std::string kernelSource, std::string file, SimRunOptions options)
        : m_source(std::move(kernelSource)), m_file(std::move(file)), m_options(std::move(options))
    {
    }
    std::string name() const override { return "sim"; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                  const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs,
                  const std::atomic<bool>* cancel) override;

private:
    std::string m_source;
    std::string m_file;
    SimRunOptions m_options;
};

} // namespace ptowb
