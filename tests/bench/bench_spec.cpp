// Load + validate a sample op.json (target < 1 ms); evaluate one output shape rule (< 1 µs).
#include "spec/op_spec_loader.h"

#include <benchmark/benchmark.h>
#include <fstream>
#include <sstream>

using namespace ptowb;

namespace {

std::string sampleDir(const char* name)
{
    return std::string(PTOWB_SOURCE_DIR "/projects/") + name;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void loadAndValidate(benchmark::State& state, const char* project)
{
    const std::string path = sampleDir(project) + "/op.json";
    for (auto _ : state) {
        SpecLoadResult r = loadOpSpecFile(path);
        if (!r.usable()) state.SkipWithError("sample does not validate");
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK_CAPTURE(loadAndValidate, scale_gelu, "scale_gelu")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(loadAndValidate, softmax, "softmax")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(loadAndValidate, matmul_bias, "matmul_bias")->Unit(benchmark::kMicrosecond);

void validateInMemory(benchmark::State& state)
{
    // The editor's path: text already in memory, files checked on disk.
    const std::string text = readFile(sampleDir("matmul_bias") + "/op.json");
    const std::string dir = sampleDir("matmul_bias");
    for (auto _ : state)
        benchmark::DoNotOptimize(loadOpSpecText(text, "op.json", dir));
}
BENCHMARK(validateInMemory)->Unit(benchmark::kMicrosecond);

void evaluateShapeRule(benchmark::State& state, const char* project)
{
    const SpecLoadResult r = loadOpSpecFile(sampleDir(project) + "/op.json");
    const OpSpec& spec = r.spec;
    const CaseSpec& c = spec.cases.front();
    std::vector<rules::TensorInfo> inputs;
    for (const auto& in : c.inputs)
        inputs.push_back({in.shape, in.dtype});
    const rules::RuleBindings bindings{inputs, c.params};
    const rules::Rule& rule = *spec.outputs.front().shape;
    for (auto _ : state)
        benchmark::DoNotOptimize(rule.evaluate(bindings));
    state.SetLabel(rule.text());
}
BENCHMARK_CAPTURE(evaluateShapeRule, scale_gelu, "scale_gelu")->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(evaluateShapeRule, matmul_bias, "matmul_bias")->Unit(benchmark::kNanosecond);

void compileRule(benchmark::State& state)
{
    rules::RuleScope scope;
    scope.inputs = {"a", "b"};
    scope.params = {{"trans_b", rules::Type::Bool}};
    for (auto _ : state)
        benchmark::DoNotOptimize(
            rules::Rule::compile("matmul_shape(a.shape, b.shape, False, trans_b)", scope));
}
BENCHMARK(compileRule)->Unit(benchmark::kNanosecond);

} // namespace

BENCHMARK_MAIN();
