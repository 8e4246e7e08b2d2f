#pragma once

#include "run/backend.h"

#include <string>

namespace ptowb {

// `pypto-sim`: the kernel file run under the real PyPTO package (not the workbench's `pypto`) in
// RunMode.SIM, in the interpreter the user chose, by the driver script ptowb_pypto_run.py. A
// separate process per case, like a runner: under the process reaper, with the case's time limit,
// a memory limit and capped logs (stdout.log, stderr.log). PyPTO's CostModel writes no output
// values, so the case yields none; its files stay in <case>/pypto/output_*/, and run.json's "cost"
// records its total and per-pipe cycles. A kernel PyPTO rejects is a diagnostic at its line, in
// PyPTO's words.
class PyptoSimBackend : public Backend
{
public:
    PyptoSimBackend(std::string kernelSource, std::string file, SimRunOptions options,
                    std::string python)
        : m_source(std::move(kernelSource)), m_file(std::move(file)), m_options(std::move(options)),
          m_python(std::move(python))
    {
    }
    std::string name() const override { return "pypto-sim"; }
    bool producesValues() const override { return false; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                  const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs,
                  const std::atomic<bool>* cancel) override;

private:
    std::string m_source;
    std::string m_file;
    SimRunOptions m_options;
    std::string m_python;
};

// Why the real PyPTO cannot run in the chosen interpreter (interpreter/interpreter.h): one message
// naming it — no such Python, no torch, or no pypto package; "" when it can, with `python` set
// to the interpreter's path and `version` to PyPTO's.
std::string pyptoUnavailable(const std::string& chosen, std::string& python, std::string& version);

// Where a case's PyPTO output goes, relative to the case folder.
inline constexpr const char* kPyptoOutputFolder = "pypto";

} // namespace ptowb
