#include "run/verification.h"

#include "tensor/case_inputs.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace ptowb {

namespace {

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
    return text;
}

std::string refuseOverMemoryLimit(const std::string& caseName,
                                  std::span<const rules::TensorInfo> inputs,
                                  std::span<const InferredOutput> outputs,
                                  const RunOptions& options)
{
    const WorkingSet need = caseWorkingSet(inputs, outputs);
    const std::uint64_t limit =
        options.memoryLimitBytes ? options.memoryLimitBytes : defaultMemoryLimit();
    if (need.estimateBytes <= double(limit)) return {};
    return "case '" + caseName + "' needs about " + gib(need.estimateBytes) + " of memory (" +
           gib(double(need.tensorBytes)) + " of inputs and outputs, " +
           std::to_string(int(kWorkingSetFactor)) +
           " times over while it runs), more than the limit of " + gib(double(limit)) +
           (options.memoryLimitBytes ? "" : " (half of this machine's RAM)") +
           "; make its shapes smaller";
}

} // namespace

WorkingSet caseWorkingSet(std::span<const rules::TensorInfo> inputs,
                          std::span<const InferredOutput> outputs)
{
    // In doubles: the element counts of a validated case fit in int64, their bytes may not.
    double bytes = 0;
    auto add = [&](const std::vector<std::int64_t>& shape, DType dtype) {
        double n = dtypeInfo(dtype).itemSize;
        for (std::int64_t d : shape)
            n *= double(d);
        bytes += n;
    };
    for (const auto& in : inputs)
        add(in.shape, in.dtype);
    for (const auto& out : outputs)
        add(out.shape, out.dtype);
    WorkingSet w;
    w.tensorBytes = bytes >= 1.8e19 ? UINT64_MAX : std::uint64_t(bytes);
    w.estimateBytes = bytes * kWorkingSetFactor;
    return w;
}

std::uint64_t defaultMemoryLimit()
{
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) / 2
                                     : std::uint64_t(4) << 30;
}

std::vector<CaseRun> runCases(const OpSpec& spec, const std::string& projectDir, Backend& backend,
                              const RunOptions& options)
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
        // Shapes first: the outputs the rules give, and whether the case fits in memory.
        std::vector<rules::TensorInfo> infos;
        for (const CaseInputSpec& in : c->inputs)
            infos.push_back({in.shape, in.dtype});
        auto expected = inferOutputs(spec, infos, c->params);
        if (auto* e = std::get_if<InferenceError>(&expected)) {
            run.record.status = "error";
            run.record.error = e->message;
            runs.push_back(std::move(run));
            continue;
        }
        run.record.expectedOutputs =
            caseResults(spec, infos, std::get<std::vector<InferredOutput>>(expected));
        if (std::string refused =
                refuseOverMemoryLimit(c->name, infos, run.record.expectedOutputs, options);
            !refused.empty()) {
            run.record.status = "error";
            run.record.error = refused;
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
        for (std::size_t k = 0; k < run.inputs.size(); ++k)
            run.record.inputs.push_back(
                {spec.inputs[k].name, run.inputs[k].shape(), run.inputs[k].dtype()});
        if (std::string e =
                runfolder::prepareCase(run.dir, spec, run.inputs, c->params, run.record);
            !e.empty()) {
            run.record.status = "error";
            run.record.error = e;
            runs.push_back(std::move(run));
            continue;
        }
        run.record = backend.run(spec, run.inputs, c->params, run.dir, run.record, run.outputs,
                                 options.cancel);
        runfolder::writeRecord(run.dir, run.record);
        runs.push_back(std::move(run));
        ++done;
    }
    if (options.progress) options.progress(int(selected.size()), int(selected.size()), {});
    return runs;
}

bool CaseVerification::pass() const
{
    if (costOnly) return error.empty();
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

VerificationReport verify(const OpSpec& spec, const std::string& projectDir, Backend& reference,
                          Backend& target, const std::string& runsRoot, RunOptions options)
{
    VerificationReport report;
    report.op = spec.name;
    report.target = target.name();
    const std::string id = runfolder::newRunId("verify");
    report.referenceRunDir =
        (std::filesystem::path(runsRoot) / (id + "-" + reference.name())).string();
    report.targetRunDir = (std::filesystem::path(runsRoot) / (id + "-" + target.name())).string();

    if (!target.producesValues()) {
        report.referenceRunDir.clear();
        options.runDir = report.targetRunDir;
        for (const CaseRun& run : runCases(spec, projectDir, target, options)) {
            CaseVerification v;
            v.caseName = run.caseName;
            v.costOnly = true;
            v.seconds = run.record.durationSeconds;
            v.stderrTail = run.record.stderrTail;
            v.cost = run.record.cost;
            report.cancelled = report.cancelled || run.record.status == "cancelled";
            if (!run.ok()) {
                v.error = run.record.error;
                v.diagnostics = run.record.diagnostics;
            }
            report.cases.push_back(std::move(v));
        }
        return report;
    }
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
        v.cost = actual[k].record.cost;
        if (actual[k].record.status == "cancelled" || expected[k].record.status == "cancelled")
            report.cancelled = true;
        if (!expected[k].ok()) {
            v.error = "reference: " + expected[k].record.error;
            v.diagnostics = expected[k].record.diagnostics;
        } else if (!actual[k].ok()) {
            v.error = actual[k].record.error;
            v.diagnostics = actual[k].record.diagnostics;
        } else {
            const std::vector<std::string> results = spec.resultNames();
            const auto kase = std::find_if(spec.cases.begin(), spec.cases.end(),
                                           [&](const CaseSpec& c) { return c.name == v.caseName; });
            for (std::size_t o = 0; o < results.size() && o < expected[k].outputs.size() &&
                                    o < actual[k].outputs.size();
                 ++o) {
                if (kase != spec.cases.end() && kase->unchecked.count(results[o])) {
                    v.unchecked.push_back(results[o]);
                    continue;
                }
                OutputCheck check;
                check.name = results[o];
                const Tensor& want = expected[k].outputs[o];
                check.criteria = criteriaFor(spec.tolerance, want.dtype());
                check.comparison =
                    compareTensors(actual[k].outputs[o], want, compareOptionsFor(check.criteria));
                check.verdict = judge(check.comparison, check.criteria);
                v.outputs.push_back(std::move(check));
            }
        }
        report.cases.push_back(std::move(v));
    }
    return report;
}

} // namespace ptowb
