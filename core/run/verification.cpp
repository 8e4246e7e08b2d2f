#include "run/verification.h"

#include "tensor/case_inputs.h"

#include <filesystem>

namespace ptowb {

std::vector<CaseRun> runCases(const OpSpec& spec, const std::string& projectDir, Backend& backend, const RunOptions& options)
{
    std::vector<const CaseSpec*> selected;
    for (const CaseSpec& c : spec.cases)
        if (options.caseFilter.empty() || c.name == options.caseFilter) selected.push_back(&c);
    std::vector<CaseRun> runs;
    int done = 0;
    for (const CaseSpec* c : selected) {
        CaseRun run;
        run.caseName = c->name;
        run.dir = runfolder::caseDir(options.runDir, c->name);
        run.record.backend = backend.name();
        run.record.caseName = c->name;
        if (options.progress) options.progress(done, int(selected.size()), c->name);
        if (options.cancel && options.cancel->load()) {
            run.record.status = "cancelled";
            run.record.error = "cancelled before it started";
            runs.push_back(std::move(run));
            continue;
        }
        auto inputs = makeCaseInputs(spec, *c, projectDir);
        if (auto* e = std::get_if<std::string>(&inputs)) {
            run.record.status = "error";
            run.record.error = *e;
            runs.push_back(std::move(run));
            continue;
        }
        run.inputs = std::move(std::get<std::vector<Tensor>>(inputs));
        std::vector<rules::TensorInfo> infos;
        for (const Tensor& t : run.inputs) infos.push_back({t.shape(), t.dtype()});
        auto expected = inferOutputs(spec, infos, c->params);
        if (auto* e = std::get_if<InferenceError>(&expected)) {
            run.record.status = "error";
            run.record.error = e->message;
            runs.push_back(std::move(run));
            continue;
        }
        run.record.expectedOutputs = std::get<std::vector<InferredOutput>>(expected);
        for (std::size_t k = 0; k < run.inputs.size(); ++k)
            run.record.inputs.push_back({spec.inputs[k].name, run.inputs[k].shape(), run.inputs[k].dtype()});
        if (std::string e = runfolder::prepareCase(run.dir, spec, run.inputs, c->params, run.record); !e.empty()) {
            run.record.status = "error";
            run.record.error = e;
            runs.push_back(std::move(run));
            continue;
        }
        run.record = backend.run(spec, run.inputs, c->params, run.dir, run.record, run.outputs, options.cancel);
        runfolder::writeRecord(run.dir, run.record);
        runs.push_back(std::move(run));
        ++done;
    }
    if (options.progress) options.progress(int(selected.size()), int(selected.size()), {});
    return runs;
}

bool CaseVerification::pass() const
{
    if (!error.empty() || outputs.empty()) return false;
    for (const auto& o : outputs)
        if (!o.verdict.pass) return false;
    return true;
}

bool VerificationReport::pass() const
{
    if (cases.empty() || cancelled) return false;
    for (const auto& c : cases)
        if (!c.pass()) return false;
    return true;
}

VerificationReport verify(const OpSpec& spec, const std::string& projectDir, Backend& reference, Backend& target,
                          const std::string& runsRoot, RunOptions options)
{
    VerificationReport report;
    report.op = spec.name;
    report.target = target.name();
    const std::string id = runfolder::newRunId("verify");
    report.referenceRunDir = (std::filesystem::path(runsRoot) / (id + "-" + reference.name())).string();
    report.targetRunDir = (std::filesystem::path(runsRoot) / (id + "-" + target.name())).string();

    // Progress counts both passes: the reference first, then the target.
    auto progress = options.progress;
    RunOptions refOptions = options;
    refOptions.runDir = report.referenceRunDir;
    refOptions.progress = [&](int done, int total, const std::string& name) {
        if (progress) progress(done, 2 * total, name);
    };
    const std::vector<CaseRun> expected = runCases(spec, projectDir, reference, refOptions);
    RunOptions targetOptions = options;
    targetOptions.runDir = report.targetRunDir;
    targetOptions.progress = [&](int done, int total, const std::string& name) {
        if (progress) progress(total + done, 2 * total, name);
    };
    const std::vector<CaseRun> actual = runCases(spec, projectDir, target, targetOptions);

    for (std::size_t k = 0; k < expected.size() && k < actual.size(); ++k) {
        CaseVerification v;
        v.caseName = expected[k].caseName;
        v.seconds = actual[k].record.durationSeconds;
        v.stderrTail = actual[k].record.stderrTail;
        if (actual[k].record.status == "cancelled" || expected[k].record.status == "cancelled") report.cancelled = true;
        if (!expected[k].ok()) v.error = "reference: " + expected[k].record.error;
        else if (!actual[k].ok()) v.error = actual[k].record.error;
        else {
            for (std::size_t o = 0; o < spec.outputs.size(); ++o) {
                OutputCheck check;
                check.name = spec.outputs[o].name;
                const Tensor& want = expected[k].outputs[o];
                CompareOptions compareOptions;
                check.criteria = criteriaFor(spec.tolerance, want.dtype());
                compareOptions.rtol = check.criteria.rtol;
                compareOptions.atol = check.criteria.atol;
                check.comparison = compareTensors(actual[k].outputs[o], want, compareOptions);
                check.verdict = judge(check.comparison, check.criteria);
                v.outputs.push_back(std::move(check));
            }
        }
        report.cases.push_back(std::move(v));
    }
    return report;
}

} // namespace ptowb
