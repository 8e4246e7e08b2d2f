// compare() over two 64M-element float32 tensors (target: >= 2 GB/s of input, and >= 10x the
// NumPy baseline in compare_numpy.py); loading a 256 MiB .npy (target: >= 1 GB/s).
#include "tensor/compare.h"
#include "tensor/npy.h"

#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace ptowb;

namespace {

constexpr std::int64_t kElements = 64ll << 20;

const std::pair<Tensor, Tensor>& pair()
{
    static const std::pair<Tensor, Tensor> tensors = [] {
        Tensor a(DType::Float32, {kElements}), e(DType::Float32, {kElements});
        auto av = a.mutableValues<float>();
        auto ev = e.mutableValues<float>();
        std::uint32_t s = 12345;
        for (std::int64_t k = 0; k < kElements; ++k) {
            s = s * 1664525u + 1013904223u;
            const float v = float(s >> 8) / 16777216.0f - 0.5f;
            ev[std::size_t(k)] = v;
            av[std::size_t(k)] = v * (1.0f + 1e-4f * float((s >> 3) & 7));
        }
        return std::pair{std::move(a), std::move(e)};
    }();
    return tensors;
}

void compareFloat32(benchmark::State& state)
{
    const auto& [a, e] = pair();
    CompareOptions options;
    for (auto _ : state)
        benchmark::DoNotOptimize(compareTensors(a, e, options));
    state.SetBytesProcessed(state.iterations() * std::int64_t(a.byteSize() + e.byteSize()));
}
BENCHMARK(compareFloat32)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);

void loadNpy(benchmark::State& state)
{
    const std::string path = "/tmp/ptowb_bench_256MiB.npy";
    const Tensor t(DType::Float32, {64ll << 20});
    if (!writeNpy(path, t).empty()) state.SkipWithError("cannot write the test file");
    double checksum = 0;
    for (auto _ : state) {
        auto read = readNpy(path);
        const Tensor& loaded = std::get<Tensor>(read);
        // Read every element, so the measurement includes the data and not just the mapping.
        double sum = 0;
        for (float v : loaded.values<float>())
            sum += v;
        checksum += sum;
    }
    benchmark::DoNotOptimize(checksum);
    state.SetBytesProcessed(state.iterations() * std::int64_t(t.byteSize()));
    std::remove(path.c_str());
}
BENCHMARK(loadNpy)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);

} // namespace

BENCHMARK_MAIN();
