// compare() over two 64M-element float32 tensors (target: >= 2 GB/s of input, and >= 10x the
// NumPy baseline in compare_numpy.py); loading a 256 MiB .npy (target: >= 1 GB/s); comparing two
// 32M-element float32 .npy files as they are read (target: within 1.5x of one streaming NumPy
// pass over both files, stream_numpy.py, which writes the same files).
#include "tensor/compare.h"
#include "tensor/compare_files.h"
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

// The files stream_numpy.py reads, written the same way (same generator, so the numbers agree).
void compareFiles32M(benchmark::State& state)
{
    const std::string actual = "/tmp/ptowb_bench_compare_actual_32M.npy";
    const std::string expected = "/tmp/ptowb_bench_compare_expected_32M.npy";
    constexpr std::int64_t n = 32ll << 20;
    Tensor a(DType::Float32, {n}), e(DType::Float32, {n});
    auto av = a.mutableValues<float>();
    auto ev = e.mutableValues<float>();
    std::uint32_t s = 12345;
    for (std::int64_t k = 0; k < n; ++k) {
        s = s * 1664525u + 1013904223u;
        const float v = float(s >> 8) / 16777216.0f - 0.5f;
        ev[std::size_t(k)] = v;
        av[std::size_t(k)] = v * (1.0f + 1e-4f * float((s >> 3) & 7));
    }
    if (!writeNpy(actual, a).empty() || !writeNpy(expected, e).empty())
        state.SkipWithError("cannot write the test files");
    a = Tensor();
    e = Tensor();
    CompareOptions options;
    for (auto _ : state) {
        auto r = compareNpyFiles(actual, expected, options);
        if (!std::holds_alternative<Comparison>(r)) state.SkipWithError("compare failed");
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(state.iterations() * 2 * n * 4);
    std::remove(actual.c_str());
    std::remove(expected.c_str());
}
BENCHMARK(compareFiles32M)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3);

} // namespace

BENCHMARK_MAIN();
