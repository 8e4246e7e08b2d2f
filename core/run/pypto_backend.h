#pragma once

#include "run/backend.h"

#include <string>

namespace ptowb {

// The kernel file run under the real PyPTO package (not the workbench's `pypto`), in the
// interpreter the user chose, by the driver script ptowb_pypto_run.py. A separate process per
// case, like a runner: under the process reaper, with the case's time limit, a memory limit and
// capped logs (stdout.log, stderr.log). A kernel PyPTO rejects is a diagnostic at its line, in
// PyPTO's words.
// - `pypto-sim`: RunMode.SIM. PyPTO's CostModel writes no output values, so the case yields none;
//   its files stay in <case>/pypto/output_*/, and run.json's "cost" records its total and
//   per-pipe cycles.
// - `npu`: RunMode.NPU on the device torch_npu gives; the outputs come back to outputs/ and are
//   compared like any backend's.
class PyptoBackend : public Backend
{
public:
    enum class Mode
    {
        Sim,
        Npu
    };
    PyptoBackend(Mode mode, std::string kernelSource, std::string file, SimRunOptions options,
                 std::string python)
        : m_mode(mode), m_source(std::move(kernelSource)), m_file(std::move(file)),
          m_options(std::move(options)), m_python(std::move(python))
    {
    }
    std::string name() const override { return m_mode == Mode::Npu ? "npu" : "pypto-sim"; }
    bool producesValues() const override { return m_mode == Mode::Npu; }
    RunRecord run(const OpSpec& spec, const std::vector<Tensor>& inputs,
                  const std::vector<rules::Value>& params, const std::string& caseDir,
                  RunRecord record, std::vector<Tensor>& outputs,
                  const std::atomic<bool>* cancel) override;

private:
    // The CostModel's report into the record's "cost"; false with the record saying why.
    bool readCostModel(const nlohmann::json& answer, const std::string& caseDir,
                       RunRecord& record) const;
    Mode m_mode;
    std::string m_source;
    std::string m_file;
    SimRunOptions m_options;
    std::string m_python;
};

// Why `mode` cannot run in the chosen interpreter (interpreter/interpreter.h): one message naming
// it — no such Python, no torch, no pypto package, or (npu) no torch_npu; "" when it can, with
// `python` set to the interpreter's path. Whether a device is there shows when a case runs.
std::string pyptoUnavailable(PyptoBackend::Mode mode, const std::string& chosen,
                             std::string& python);

// Where a case's PyPTO output goes, relative to the case folder.
inline constexpr const char* kPyptoOutputFolder = "pypto";

} // namespace ptowb
