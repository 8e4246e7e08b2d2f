// Simulator speed (targets: three elementwise ops over 16M float32 within 2x of libtorch
// eager running the same ops; parse + check of a 200-line kernel < 5 ms).
#include "kernel/kernel_check.h"
#include "kernel/kernel_parser.h"
#include "sim/simulator.h"
#include "spec/op_spec_loader.h"

#include <benchmark/benchmark.h>

using namespace ptowb;

namespace {

constexpr std::int64_t kElements = 16 << 20;
const char* const kElementwise = "import pypto\n\ndef kernel(x, y):\n    y[:] = pypto.exp(x) * 2.0 + 1.0\n";

void simulatorElementwise(benchmark::State& state)
{
    at::set_num_threads(int(state.range(0)));
    Diagnostics d;
    const kernel::Module m = kernel::parseKernel(kElementwise, "k.py", d);
    const at::Tensor x = at::randn({kElements});
    at::Tensor y = at::empty({kElements});
    const std::map<std::string, sim::Value> args{{"x", sim::Value::ofTensor(x)}, {"y", sim::Value::ofTensor(y)}};
    for (auto _ : state) benchmark::DoNotOptimize(sim::runKernel(m, m.functions[0], args, "k.py", {}));
    state.SetBytesProcessed(state.iterations() * kElements * 4);
}

void torchEagerElementwise(benchmark::State& state)
{
    at::set_num_threads(int(state.range(0)));
    const at::Tensor x = at::randn({kElements});
    at::Tensor y = at::empty({kElements});
    for (auto _ : state) {
        c10::InferenceMode guard;
        y.copy_(at::exp(x) * 2.0 + 1.0); // the same three ops, written into the output as the kernel does
        benchmark::DoNotOptimize(y.data_ptr());
    }
    state.SetBytesProcessed(state.iterations() * kElements * 4);
}

std::string longKernel()
{
    std::string text = "import pypto\n\n\n@pypto.frontend.jit()\ndef scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):\n"
                       "    rows, cols = x.shape\n    pypto.set_vec_tile_shapes(1, 64)\n";
    for (int k = 0; text.size() < 200 * 60 || std::count(text.begin(), text.end(), '\n') < 200; ++k)
        text += "    v" + std::to_string(k) + " = pypto.exp(pypto.view(x, [1, channels], [0, 0])) * " + std::to_string(k) + ".5 + scale  # step\n";
    return text + "    y[0:1, :] = v0\n";
}

void parseAndCheck200Lines(benchmark::State& state)
{
    const SpecLoadResult spec = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json");
    const std::string text = longKernel();
    for (auto _ : state) {
        const Diagnostics d = kernel::checkKernelSource(text, spec.spec, "kernel.py");
        if (!d.empty()) state.SkipWithError(d[0].message.c_str());
    }
    state.counters["lines"] = double(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

BENCHMARK(simulatorElementwise)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(torchEagerElementwise)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(parseAndCheck200Lines)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
