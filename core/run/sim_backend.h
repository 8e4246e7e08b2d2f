#pragma once

#include "run/backend.h"

namespace ptowb {

// `sim`: the kernel file run by the built-in simulator, in-process. With a platform it also
// writes the case's cost estimate into run.json and its trace into trace.json; with capture,
// the last value of every tensor assignment into captures/L<line>_<name>.npy.
class SimBackend : public Backend
{
public:
    SimBackend(std::string kernelSource, std::string file, SimRunOptions options)
        : m_source(std::move(kernelSource)), m_file(std::move(file)), m_options(std::move(options))
    {
    }
    std::string name() const override { return "sim"; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs, const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs, const std::atomic<bool>* cancel) override;

private:
    std::string m_source;
    std::string m_file;
    SimRunOptions m_options;
};

} // namespace ptowb
