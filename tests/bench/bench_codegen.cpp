// Glue generation and package export speed (targets: all glue of a sample < 20 ms; export
// without golden runs < 200 ms).
#include "package/package_export.h"
#include "project/project_sources.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <benchmark/benchmark.h>

using namespace ptowb;

namespace {

Project sample(const char* name)
{
    std::string error;
    return *Project::open(std::string(PTOWB_SOURCE_DIR "/projects/") + name, error);
}

void generateAllGlue(benchmark::State& state, const char* name)
{
    const ProjectSources sources = readProjectSources(sample(name));
    const codegen::GlueSource source = sources.glueSource();
    std::size_t bytes = 0;
    for (auto _ : state) {
        const auto files = codegen::generateGlue(source);
        bytes = 0;
        for (const auto& f : files)
            bytes += f.content.size();
        benchmark::DoNotOptimize(bytes);
    }
    state.counters["bytes"] = double(bytes);
}

// Reading and validating the project included, as `ptowb-cli generate` does it.
void readAndGenerate(benchmark::State& state, const char* name)
{
    const Project project = sample(name);
    for (auto _ : state)
        benchmark::DoNotOptimize(codegen::generateGlue(readProjectSources(project).glueSource()));
}

void exportWithoutGoldens(benchmark::State& state, const char* name)
{
    const Project project = sample(name);
    QTemporaryDir out;
    ExportOptions options;
    options.outputFolder = out.path().toStdString();
    options.goldens = false;
    for (auto _ : state) {
        const ExportResult result = exportPackage(project, options);
        if (!result.ok()) state.SkipWithError(result.error.c_str());
    }
}

} // namespace

BENCHMARK_CAPTURE(generateAllGlue, scale_gelu, "scale_gelu")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generateAllGlue, softmax, "softmax")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generateAllGlue, matmul_bias, "matmul_bias")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(readAndGenerate, matmul_bias, "matmul_bias")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(exportWithoutGoldens, scale_gelu, "scale_gelu")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(exportWithoutGoldens, matmul_bias, "matmul_bias")->Unit(benchmark::kMillisecond);

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
