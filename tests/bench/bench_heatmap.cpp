// Tensor diff heatmap speed (target: a 4096 x 4096 output rendered < 50 ms): the max-pooled
// error map of the slice, then the image the widget paints.
#include "tensor/error_map.h"
#include "tensor_heatmap.h"

#include <QApplication>
#include <benchmark/benchmark.h>
#include <random>

using namespace ptowb;

namespace {

std::pair<Tensor, Tensor> tensors(std::int64_t n)
{
    Tensor a(DType::Float32, {n, n}), e(DType::Float32, {n, n});
    std::mt19937 rng(1);
    std::normal_distribution<float> d;
    auto av = a.mutableValues<float>();
    auto ev = e.mutableValues<float>();
    for (std::size_t k = 0; k < av.size(); ++k) {
        ev[k] = d(rng);
        av[k] = ev[k] + 1e-3f * d(rng);
    }
    return {a, e};
}

void errorMap4096(benchmark::State& state)
{
    const auto [a, e] = tensors(4096);
    for (auto _ : state)
        benchmark::DoNotOptimize(computeErrorMap(a, e, SliceSpec{}, 512, 512));
}

void renderHeatmap4096(benchmark::State& state)
{
    const auto [a, e] = tensors(4096);
    TensorHeatmap heatmap;
    for (auto _ : state) {
        const ErrorMap map = computeErrorMap(a, e, SliceSpec{}, 512, 512);
        heatmap.setData(a, e, SliceSpec{}, map);
        benchmark::DoNotOptimize(heatmap.renderMap(QSize(800, 600)));
    }
}

} // namespace

BENCHMARK(errorMap4096)->Unit(benchmark::kMillisecond);
BENCHMARK(renderHeatmap4096)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    return 0;
}
