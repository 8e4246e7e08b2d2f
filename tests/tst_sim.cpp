// The built-in simulator: kernels in tests/data/sim_kernels, each against libtorch computing
// the same math; fp16 emulation; runtime diagnostics at their line:column; determinism.
#include "kernel/kernel_parser.h"
#include "sim/simulator.h"

#include <QDir>
#include <QFile>
#include "kernel/pypto_api.h"
#include <QTest>

using namespace ptowb;
using sim::Value;

namespace {

struct Ran
{
    sim::RunResult result;
    std::map<std::string, Value> args;
};

Ran runSource(const std::string& source, std::map<std::string, Value> args, const sim::RunOptions& options = {})
{
    Diagnostics d;
    static std::vector<kernel::Module> modules; // the tree outlives the run
    modules.push_back(kernel::parseKernel(source, "kernel.py", d));
    if (!d.empty()) qFatal("%s", formatDiagnostic(d[0]).c_str());
    const kernel::Module& m = modules.back();
    Ran ran{sim::runKernel(m, m.functions.at(0), args, "kernel.py", options), args};
    return ran;
}

Ran runFile(const char* name, std::map<std::string, Value> args)
{
    QFile f(QStringLiteral(PTOWB_TEST_DATA "/sim_kernels/") + QString::fromLatin1(name) + QStringLiteral(".py"));
    if (!f.open(QIODevice::ReadOnly)) qFatal("no kernel %s", name);
    return runSource(f.readAll().toStdString(), std::move(args));
}

Value tv(const at::Tensor& x) { return Value::ofTensor(x); }
at::Tensor out(std::vector<std::int64_t> shape, at::ScalarType type = at::kFloat) { return at::full(shape, NAN, at::TensorOptions().dtype(type)); }
at::Tensor randn(std::vector<std::int64_t> shape, at::ScalarType type = at::kFloat) { return at::randn(shape).to(type); }

bool close(const at::Tensor& a, const at::Tensor& b, double rtol = 1e-5, double atol = 1e-6)
{
    if (a.sizes() != b.sizes() || a.scalar_type() != b.scalar_type()) {
        qWarning("shape/dtype %s %s vs %s %s", c10::str(a.sizes()).c_str(), c10::toString(a.scalar_type()), c10::str(b.sizes()).c_str(),
                 c10::toString(b.scalar_type()));
        return false;
    }
    const bool ok = at::allclose(a.to(at::kDouble), b.to(at::kDouble), rtol, atol);
    if (!ok) qWarning("max abs error %g", (a.to(at::kDouble) - b.to(at::kDouble)).abs().max().item<double>());
    return ok;
}

void noErrors(const sim::RunResult& r)
{
    for (const auto& d : r.diagnostics) qWarning("%s", formatDiagnostic(d).c_str());
    QVERIFY(r.diagnostics.empty());
}

} // namespace

class TestSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void elementwiseChain()
    {
        const auto x = randn({8, 32});
        auto r = runFile("elementwise_chain", {{"x", tv(x)}, {"y", tv(out({8, 32}))}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, ((x.exp() * 2 + 1) - 0.5 * x) / 3));
    }

    void unaryOps()
    {
        const auto x = at::rand({4, 16}) * 6 - 3;
        auto r = runFile("unary_ops", {{"x", tv(x)}, {"y", tv(out({4, 16}))}});
        noErrors(r.result);
        const auto a = x.abs() + 0.5;
        const auto want = (a.sqrt() + a.rsqrt() + a.reciprocal() + a.log()) + (x.sigmoid() + x.tanh() + x.relu() - x) +
                          (x.sin() + x.cos() + x.ceil() + x.floor() + x.round() + x.trunc());
        QVERIFY(close(r.args["y"].tensor, want));
    }

    void binaryOps()
    {
        const auto a = randn({4, 16}), b = randn({4, 16});
        auto r = runFile("binary_ops", {{"a", tv(a)}, {"b", tv(b)}, {"y", tv(out({4, 16}))}});
        noErrors(r.result);
        const auto want = (at::maximum(a, b) - at::minimum(a, b)) + 2 * (a * b + a / (b.abs() + 1)) + ((a.abs() + 1).pow(2) + a.pow(2)) + a;
        QVERIFY(close(r.args["y"].tensor, want));
    }

    void compareWhere()
    {
        auto x = randn({6, 10}) * 2;
        x[0][0] = 0.5;
        auto r = runFile("compare_where", {{"x", tv(x)}, {"y", tv(out({6, 10}))}, {"slope", Value::ofFloat(0.1)}});
        noErrors(r.result);
        const auto f = [](const at::Tensor& b) { return b.to(at::kFloat); };
        const auto want = at::where(x > 0, x, x * 0.1) + f(x <= -1) + 2 * f(x >= 1) + 4 * f(x == 0.5) + 8 * f(x != x) + 16 * f(x < -2) + 32 * f(x >= 2);
        QVERIFY(close(r.args["y"].tensor, want));
    }

    void reductions()
    {
        const auto x = randn({16, 48});
        auto r = runFile("reductions", {{"x", tv(x)}, {"row_sum", tv(out({16, 1}))}, {"col_max", tv(out({48}))}, {"total_min", tv(out({1, 1}))}});
        noErrors(r.result);
        QVERIFY(close(r.args["row_sum"].tensor, x.sum(-1, true), 1e-5, 1e-5));
        QVERIFY(close(r.args["col_max"].tensor, std::get<0>(x.max(0))));
        QVERIFY(close(r.args["total_min"].tensor, x.min().reshape({1, 1})));
    }

    void softmaxFp16()
    {
        const auto x = randn({5, 40}, at::kHalf);
        auto r = runFile("softmax_builtin", {{"x", tv(x)}, {"y", tv(out({5, 40}, at::kHalf))}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, at::softmax(x.to(at::kFloat), -1).to(at::kHalf), 1e-3, 1e-3));
    }

    void matmulTransposedA()
    {
        const auto a = randn({32, 16}, at::kHalf), b = randn({32, 24}, at::kHalf);
        auto r = runFile("matmul_trans_a", {{"a", tv(a)}, {"b", tv(b)}, {"y", tv(out({16, 24}))}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, at::matmul(a.to(at::kFloat).t(), b.to(at::kFloat))));
    }

    void matmulBatched()
    {
        const auto a = randn({2, 8, 16}), b = randn({2, 12, 16});
        auto r = runFile("matmul_batched", {{"a", tv(a)}, {"b", tv(b)}, {"y", tv(out({2, 8, 12}))}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, at::matmul(a, b.transpose(1, 2)) * 0.5, 1e-5, 1e-5));
    }

    void castRoundTrip()
    {
        const auto x = randn({3, 7}) * 100;
        auto r = runFile("cast_roundtrip", {{"x", tv(x)}, {"y", tv(out({3, 7}))}, {"h", tv(out({3, 7}, at::kHalf))}});
        noErrors(r.result);
        QVERIFY(at::equal(r.args["y"].tensor, x.to(at::kHalf).to(at::kFloat)));
        QVERIFY(at::equal(r.args["h"].tensor, (x.to(at::kHalf).to(at::kFloat) * 2).to(at::kHalf)));
    }

    void tiledRows()
    {
        const auto x = randn({6, 32});
        auto r = runFile("tiled_rows", {{"x", tv(x)}, {"y", tv(out({6, 32}))}, {"scale", Value::ofFloat(2.0)}});
        noErrors(r.result);
        const auto rowStart = (at::arange(6).div(2, "floor") * 2).to(at::kFloat).unsqueeze(1);
        QVERIFY(close(r.args["y"].tensor, x * 2 + rowStart));
    }

    void reshapeTranspose()
    {
        const auto x = randn({3, 16});
        auto r = runFile("reshape_transpose", {{"x", tv(x)}, {"y", tv(out({3, 16}))}});
        noErrors(r.result);
        QVERIFY(at::equal(r.args["y"].tensor, x.reshape({3, 4, 4}).transpose(1, 2).reshape({3, 16})));
    }

    void fullConcat()
    {
        const auto x = randn({2, 5});
        auto r = runFile("full_concat", {{"x", tv(x)}, {"y", tv(out({2, 13}))}});
        noErrors(r.result);
        QVERIFY(at::equal(r.args["y"].tensor, at::cat({x, at::full({2, 3}, 1.5), x * 2}, 1)));
    }

    void assembleTiles()
    {
        const auto x = randn({3, 8});
        auto r = runFile("assemble_tiles", {{"x", tv(x)}, {"y", tv(out({3, 8}))}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, at::cat({x.slice(1, 4, 8).exp() - 1, x.slice(1, 0, 4).exp()}, 1)));
    }

    void clip()
    {
        const auto x = randn({4, 8}), lo = at::full({4, 8}, -0.2);
        auto r = runFile("clip_ops", {{"x", tv(x)}, {"lo", tv(lo)}, {"y", tv(out({4, 8}))}, {"hi", Value::ofFloat(0.7)}});
        noErrors(r.result);
        QVERIFY(at::equal(r.args["y"].tensor, at::minimum(at::maximum(x.clamp_min(-0.5), lo), at::full({}, 0.7))));
    }

    void rmsNormRows()
    {
        const auto x = randn({4, 64}), w = randn({64});
        auto r = runFile("rms_norm_rows", {{"x", tv(x)}, {"w", tv(w)}, {"y", tv(out({4, 64}))}, {"eps", Value::ofFloat(1e-6)}});
        noErrors(r.result);
        QVERIFY(close(r.args["y"].tensor, x * ((x * x).sum(-1, true) / 64 + 1e-6).rsqrt() * w, 1e-5, 1e-5));
    }

    void controlFlow()
    {
        const auto x = randn({2, 3});
        auto add = runFile("control_flow", {{"x", tv(x)}, {"y", tv(out({2, 3}))}, {"mode", Value::ofStr("add")}, {"steps", Value::ofInt(3)}});
        noErrors(add.result);
        QVERIFY(close(add.args["y"].tensor, x * 3));
        auto other = runFile("control_flow", {{"x", tv(x)}, {"y", tv(out({2, 3}))}, {"mode", Value::ofStr("none")}, {"steps", Value::ofInt(9)}});
        noErrors(other.result);
        QVERIFY(close(other.args["y"].tensor, x * 0 + 4)); // min(steps, 4) iterations
    }

    // fp16 sums on the device are rounded once per vec tile and once per combination; the
    // simulator reproduces that, so its result differs from an fp32 sum by exactly that much.
    void fp16TiledSumEmulation()
    {
        const auto x = (at::rand({1, 4096}) * 0.01 + 1).to(at::kHalf);
        auto r = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(1, 64)\n    y[:] = pypto.sum(x, -1, True)\n",
                           {{"x", tv(x)}, {"y", tv(out({1, 1}, at::kHalf))}});
        noErrors(r.result);
        at::Tensor predicted;
        for (const auto& chunk : x.split(64, -1)) {
            const auto partial = chunk.to(at::kFloat).sum(-1, true).to(at::kHalf);
            predicted = predicted.defined() ? (predicted.to(at::kFloat) + partial.to(at::kFloat)).to(at::kHalf) : partial;
        }
        const double simulated = r.args["y"].tensor.item<double>();
        const double fp32 = x.to(at::kFloat).sum().item<double>();
        QCOMPARE(simulated, predicted.item<double>());
        qInfo("fp16 tiled sum %.4f, fp32 sum %.4f, difference %.4f", simulated, fp32, simulated - fp32);
        QVERIFY(std::abs(simulated - fp32) > 1.0); // fp16 spacing near 4096 is 4: the emulation matters
        QVERIFY(std::abs(simulated - fp32) < 64.0);
    }

    // Together, the samples and tests/data/sim_kernels call every function the simulator supports.
    void everySupportedFunctionIsExercised()
    {
        std::string all;
        for (const QString& folder : {QStringLiteral(PTOWB_TEST_DATA "/sim_kernels"), QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"),
                                      QStringLiteral(PTOWB_SOURCE_DIR "/projects/softmax"), QStringLiteral(PTOWB_SOURCE_DIR "/projects/matmul_bias")})
            for (const QString& name : QDir(folder).entryList({QStringLiteral("*.py")})) {
                QFile f(QDir(folder).filePath(name));
                if (f.open(QIODevice::ReadOnly)) all += f.readAll().toStdString();
            }
        QStringList missing;
        for (const auto& api : kernel::pyptoApi())
            if (all.find("pypto." + std::string(api.name) + "(") == std::string::npos) missing << QString::fromLatin1(api.name.data(), int(api.name.size()));
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
        QVERIFY(QDir(QStringLiteral(PTOWB_TEST_DATA "/sim_kernels")).entryList({QStringLiteral("*.py")}).size() >= 15);
    }

    void deterministic()
    {
        const auto x = randn({16, 48}, at::kHalf);
        auto a = runFile("reductions", {{"x", tv(x)}, {"row_sum", tv(out({16, 1}, at::kHalf))}, {"col_max", tv(out({48}, at::kHalf))}, {"total_min", tv(out({1, 1}, at::kHalf))}});
        auto b = runFile("reductions", {{"x", tv(x)}, {"row_sum", tv(out({16, 1}, at::kHalf))}, {"col_max", tv(out({48}, at::kHalf))}, {"total_min", tv(out({1, 1}, at::kHalf))}});
        for (const char* name : {"row_sum", "col_max", "total_min"}) QVERIFY(at::equal(a.args[name].tensor, b.args[name].tensor));
    }

    void runtimeDiagnostics_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("broadcast") << "    y[:] = x + w\n" << "4:14 sim.shape '+' cannot broadcast shapes [4, 8] and [5]";
        QTest::newRow("view") << "    v = pypto.view(x, [2, 8], [3, 0])\n"
                              << "4:9 sim.view pypto.view: a view of shape [2, 8] at offsets [3, 0] does not fit in a tensor of shape [4, 8] (dim 0: 3 + 2 > 4)";
        QTest::newRow("store") << "    y[0:1, :] = w\n" << "4:5 sim.shape cannot write a [5] tensor into y[...] of shape [1, 8]";
        QTest::newRow("tile rank") << "    pypto.set_vec_tile_shapes(1, 2, 3)\n    y[:] = pypto.sum(x, -1, True) + x\n"
                                   << "4:5 sim.tile the vec tile shape [1, 2, 3] has rank 3, but pypto.sum at line 5 works on a rank-2 tensor [4, 8]";
        QTest::newRow("index") << "    y[:] = x[0, 0, 0]\n" << "4:12 sim.view too many indices (3) for a tensor of shape [4, 8]";
        QTest::newRow("name") << "    y[:] = z\n" << "4:12 sim.name name 'z' is not defined";
        QTest::newRow("matmul") << "    y[:] = pypto.matmul(x, x, pypto.DT_FP32)\n"
                                << "4:12 sim.shape pypto.matmul inner dimensions differ: input is [4, 8], mat2 is [4, 8] (k = 8 vs 4)";
        QTest::newRow("branch on data") << "    if x:\n        pass\n"
                                        << "4:8 kernel.unsupported the truth of a tensor depends on its data, which a kernel cannot branch on; use pypto.where";
    }

    void runtimeDiagnostics()
    {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        auto r = runSource("import pypto\n\ndef kernel(x, w, y):\n" + body.toStdString(), {{"x", tv(randn({4, 8}))}, {"w", tv(randn({5}))}, {"y", tv(out({4, 8}))}});
        QCOMPARE(r.result.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = r.result.diagnostics[0];
        QCOMPARE(QString::fromStdString(std::to_string(d.line) + ":" + std::to_string(d.col) + " " + d.code + " " + d.message), expected);
    }

    void tileExceedingTheUnifiedBuffer()
    {
        sim::Platform platform;
        platform.name = "tiny";
        platform.unifiedBufferBytes = 32768;
        platform.vectorElementsPerCycle = 128;
        platform.cubeFlopsPerCycle = 8192;
        sim::RunOptions options;
        options.platform = &platform;
        auto r = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(64, 64)\n    y[:] = x * 2.0\n",
                           {{"x", tv(randn({128, 128}))}, {"y", tv(out({128, 128}))}}, options);
        QCOMPARE(r.result.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = r.result.diagnostics[0];
        QCOMPARE(d.line, 4);
        QCOMPARE(d.col, 5);
        QCOMPARE(d.message, std::string("the vec tile shape [64, 64] needs 49152 bytes for the 3 live buffers of '*' at line 5, more than the unified "
                                        "buffer of tiny (32768 bytes)"));
        // The same kernel with a tile that fits runs.
        auto fits = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(32, 64)\n    y[:] = x * 2.0\n",
                              {{"x", tv(randn({128, 128}))}, {"y", tv(out({128, 128}))}}, options);
        noErrors(fits.result);
    }

    void costAndTrace()
    {
        sim::Platform platform;
        platform.name = "test";
        platform.unifiedBufferBytes = 1 << 17;
        platform.vectorElementsPerCycle = 128;
        platform.cubeFlopsPerCycle = 8192;
        platform.clockGHz = 1;
        platform.memoryGBps = 64;
        sim::RunOptions options;
        options.platform = &platform;
        options.capture = true;
        auto r = runSource("import pypto\n\ndef kernel(a, b, y):\n    c = pypto.matmul(a, b, pypto.DT_FP32)\n    y[:] = pypto.exp(c)\n",
                           {{"a", tv(randn({64, 32}))}, {"b", tv(randn({32, 16}))}, {"y", tv(out({64, 16}))}}, options);
        noErrors(r.result);
        // cube: 2*64*16*32 flops / 8192 per cycle at 1 GHz = 8 cycles = 0.008 us
        QCOMPARE(r.result.cost.events.at(0).durationUs, 0.008);
        QVERIFY(r.result.cost.totalUs > 0.008);
        const auto lines = r.result.cost.perLine();
        QCOMPARE(lines.size(), std::size_t(2));
        QCOMPARE(lines[0].first, 4);
        const std::string trace = r.result.cost.traceJson("kernel");
        QVERIFY(trace.find("\"traceEvents\"") != std::string::npos && trace.find("pypto.matmul") != std::string::npos);
        const sim::CostReport fromTrace = sim::costReportFromTrace(trace);
        QCOMPARE(fromTrace.platform, r.result.cost.platform);
        QVERIFY(std::abs(fromTrace.totalUs - r.result.cost.totalUs) < 1e-9);
        const auto tracedLines = fromTrace.perLine();
        QCOMPARE(tracedLines.size(), lines.size());
        for (std::size_t k = 0; k < lines.size(); ++k) {
            QCOMPARE(tracedLines[k].first, lines[k].first);
            QVERIFY(std::abs(tracedLines[k].second - lines[k].second) < 1e-9);
        }
        const auto byLine = fromTrace.byLine();
        QCOMPARE(byLine.size(), std::size_t(2));
        QCOMPARE(byLine[0].executions, 1);
        QCOMPARE(byLine[0].unitUs[int(sim::UnitKind::Cube)], 0.008);
        QVERIFY(byLine[0].firstOp.find("pypto.matmul") != std::string::npos);
        QVERIFY(sim::costReportFromTrace("{ not a trace").events.empty());
        QVERIFY(sim::costReportFromTrace("{\"traceEvents\": [{\"ph\": \"X\", \"args\": {\"line\": \"x\"}}, 3]}").events.empty());
        QCOMPARE(r.result.captures.size(), std::size_t(1));
        QCOMPARE(r.result.captures[0].name, std::string("c"));
        QCOMPARE(r.result.captures[0].line, 4);

        // In a loop, each assignment site keeps its last value only.
        auto looped = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(1, 8)\n    for i in pypto.loop(4):\n"
                                "        row = pypto.view(x, [1, 8], [i, 0])\n        y[i:i + 1, :] = row * 2.0\n",
                                {{"x", tv(randn({4, 8}))}, {"y", tv(out({4, 8}))}}, options);
        noErrors(looped.result);
        QCOMPARE(looped.result.captures.size(), std::size_t(1));
        QCOMPARE(looped.result.captures[0].name, std::string("row"));
        QVERIFY(at::equal(looped.result.captures[0].value, looped.args.at("x").tensor.slice(0, 3, 4)));
    }
};

QTEST_GUILESS_MAIN(TestSim)
#include "tst_sim.moc"
