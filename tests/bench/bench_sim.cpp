// Simulator speed, measured inside the kernel worker (the time of the kernel call itself, not
// the case folder's file I/O), in the interpreter PTOWB_PYTHON names (else the system Python).
// Targets: three elementwise ops over 16M float32 within 1.5x of the same interpreter's torch
// eager running the same ops; < 20 us per op call in a 64-iteration loop of small tiles; the first
// run of a kernel that imports torch, with a cold worker, <= 2 s; a warm re-run of an edited
// kernel < 300 ms end to end; lint of a 200-line kernel < 5 ms. The int8 matmul of a quantized
// model's up-projection ([8, 1536] x [1536, 24576], int32 out) is reported beside them.
#include "../sim_harness.h"
#include "interpreter/child_process.h"
#include "interpreter/interpreter.h"
#include "kernel/kernel_check.h"
#include "spec/op_spec_loader.h"

#include <benchmark/benchmark.h>

using namespace ptowb;

namespace {

constexpr std::int64_t kElements = 16 << 20;

void simulatorElementwise(benchmark::State& state)
{
    const at::Tensor x = at::randn({kElements});
    double seconds = 0;
    for (auto _ : state) {
        auto r = simtest::runSource(
            "import pypto\n\ndef kernel(x, y):\n    y[:] = pypto.exp(x) * 2.0 + 1.0\n", {{"x", x}},
            {{"y", {{kElements}, at::kFloat}}});
        if (!r.ok()) state.SkipWithError(r.where().c_str());
        seconds = r.answer.value("kernel_seconds", 0.0);
        state.SetIterationTime(seconds);
    }
    state.counters["kernel_ms"] = seconds * 1e3;
}

void torchEagerElementwise(benchmark::State& state)
{
    const at::Tensor x = at::randn({kElements});
    at::Tensor y = at::empty({kElements});
    for (auto _ : state) {
        c10::InferenceMode guard;
        y.copy_(at::exp(x) * 2.0 +
                1.0); // the same three ops, written into the output as the kernel does
        benchmark::DoNotOptimize(y.data_ptr());
    }
}

// The same three ops in the worker's interpreter's own torch, eager (a separate process: that torch
// may not be the one this benchmark links).
void interpreterTorchEagerElementwise(benchmark::State& state)
{
    const std::string python = interpreter::choosePython("");
    const std::string script =
        "import time, torch\nx = torch.randn(" + std::to_string(kElements) +
        ")\ny = torch.empty_like(x)\nbest = 1e9\nwith torch.inference_mode():\n"
        "    for _ in range(7):\n        t = time.perf_counter()\n"
        "        y.copy_(torch.exp(x) * 2.0 + 1.0)\n        best = min(best, time.perf_counter() - "
        "t)\n"
        "print(best)\n";
    for (auto _ : state) {
        const auto r = interpreter::runChild({python, "-E", "-c", script}, 120);
        if (r.exitCode != 0) {
            state.SkipWithError(r.err.c_str());
            break;
        }
        state.SetIterationTime(std::stod(r.out));
    }
    state.SetLabel(python);
}

// A kernel that imports torch, run with a cold worker: start the interpreter, import torch and
// the workbench's pypto, import the kernel, run one case.
void coldWorkerFirstRun(benchmark::State& state)
{
    const at::Tensor x = at::randn({64, 256});
    const std::string python = interpreter::choosePython("");
    const std::string kernel = "import torch\nimport pypto\n\ndef kernel(x, y):\n    "
                               "pypto.set_vec_tile_shapes(1, 256)\n    y[:] = pypto.exp(x)\n";
    // The launcher's probe of an interpreter is remembered after its first start.
    interpreter::kernelInterpreter(python);
    interpreter::kernelInterpreter("/" + python);
    int k = 0;
    for (auto _ : state) {
        // Another spelling of the same interpreter: the shared worker starts again, cold.
        worker::WorkerClient::choosePython(++k % 2 ? python : "/" + python);
        auto r = simtest::runSource(kernel, {{"x", x}}, {{"y", {{64, 256}, at::kFloat}}});
        if (!r.ok()) state.SkipWithError(r.where().c_str());
    }
    worker::WorkerClient::choosePython("");
    state.SetLabel(worker::WorkerClient::shared().interpreter().value("description", ""));
}

// 64 iterations of view + 3 vector ops + store on a [1, 64] tile: 5 op calls per iteration.
void smallTileLoopDispatch(benchmark::State& state)
{
    const at::Tensor x = at::randn({64, 64});
    const std::string kernel = "import pypto\n\ndef kernel(x, y):\n    "
                               "pypto.set_vec_tile_shapes(1, 64)\n    for i in pypto.loop(64):\n"
                               "        row = pypto.view(x, [1, 64], [i, 0])\n        y[i:i + 1, "
                               ":] = pypto.exp(row) * 2.0 + 1.0\n";
    double perOp = 0;
    for (auto _ : state) {
        auto r = simtest::runSource(kernel, {{"x", x}}, {{"y", {{64, 64}, at::kFloat}}});
        if (!r.ok()) state.SkipWithError(r.where().c_str());
        const double seconds = r.answer.value("kernel_seconds", 0.0);
        perOp = seconds / (64 * 5);
        state.SetIterationTime(seconds);
    }
    state.counters["us_per_op"] = perOp * 1e6;
}

// The int8 x int8 matmul of deepseek's mla_prolog up-projection at 8 tokens, exact in int32.
void int8QuantizedMatmul(benchmark::State& state)
{
    const at::Tensor a = at::randint(-128, 128, {8, 1536}, at::kChar);
    const at::Tensor b = at::randint(-128, 128, {1536, 24576}, at::kChar);
    for (auto _ : state) {
        auto r = simtest::runSource(
            "import pypto\n\ndef kernel(a, b, y):\n    y[:] = pypto.matmul(a, b, pypto.DT_INT32)\n",
            {{"a", a}, {"b", b}}, {{"y", {{8, 24576}, at::kInt}}});
        if (!r.ok()) state.SkipWithError(r.where().c_str());
        state.SetIterationTime(r.answer.value("kernel_seconds", 0.0));
    }
}

// An edit changes the kernel text: the worker re-imports it (once) and runs the case.
void warmRerunOfAnEditedKernel(benchmark::State& state)
{
    const at::Tensor x = at::randn({64, 256});
    int edit = 0;
    for (auto _ : state) {
        const std::string kernel = "import pypto\n\ndef kernel(x, y):\n    "
                                   "pypto.set_vec_tile_shapes(1, 256)\n    y[:] = pypto.exp(x) * " +
                                   std::to_string(++edit) + ".0\n";
        auto r = simtest::runSource(kernel, {{"x", x}}, {{"y", {{64, 256}, at::kFloat}}});
        if (!r.ok()) state.SkipWithError(r.where().c_str());
    }
}

std::string longKernel()
{
    std::string text = "import pypto\n\n\n@pypto.frontend.jit()\ndef scale_gelu_kernel(x: "
                       "pypto.Tensor[...], y: pypto.Tensor[...], scale: float, channels: int):\n"
                       "    rows, cols = x.shape\n    pypto.set_vec_tile_shapes(1, 64)\n";
    for (int k = 0; text.size() < 200 * 60 || std::count(text.begin(), text.end(), '\n') < 200; ++k)
        text += "    v" + std::to_string(k) +
                " = pypto.exp(pypto.view(x, [1, channels], [0, 0])) * " + std::to_string(k) +
                ".5 + scale  # step\n";
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

BENCHMARK(simulatorElementwise)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(torchEagerElementwise)->Unit(benchmark::kMillisecond);
BENCHMARK(interpreterTorchEagerElementwise)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(coldWorkerFirstRun)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(smallTileLoopDispatch)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(warmRerunOfAnEditedKernel)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(int8QuantizedMatmul)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(parseAndCheck200Lines)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
