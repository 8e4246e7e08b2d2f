// The built-in simulator: kernels in tests/data/sim_kernels run by the kernel worker (CPython with
// the workbench's pypto module), each against libtorch computing the same math; fp16 emulation;
// tiling; determinism. How runs fail, report and stop: tst_sim_runs.
#include "sim_test_helpers.h"

#include <QTest>

using namespace ptowb;
using namespace simtest;

// A failed run ends the test with its diagnostic and traceback.
class TestSim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void elementwiseChain()
    {
        const auto x = randn({8, 32});
        auto r = runFile("elementwise_chain", {{"x", x}}, {{"y", out({8, 32})}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"], ((x.exp() * 2 + 1) - 0.5 * x) / 3));
    }

    void unaryOps()
    {
        const auto x = at::rand({4, 16}) * 6 - 3;
        auto r = runFile("unary_ops", {{"x", x}}, {{"y", out({4, 16})}});
        REQUIRE_OK(r);
        const auto a = x.abs() + 0.5;
        const auto want = (a.sqrt() + a.rsqrt() + a.reciprocal() + a.log()) +
                          (x.sigmoid() + x.tanh() + x.relu() - x) +
                          (x.sin() + x.cos() + x.ceil() + x.floor() + x.round() + x.trunc());
        QVERIFY(close(r.outputs["y"], want));
    }

    void binaryOps()
    {
        const auto a = randn({4, 16}), b = randn({4, 16});
        auto r = runFile("binary_ops", {{"a", a}, {"b", b}}, {{"y", out({4, 16})}});
        REQUIRE_OK(r);
        const auto want = (at::maximum(a, b) - at::minimum(a, b)) +
                          2 * (a * b + a / (b.abs() + 1)) + ((a.abs() + 1).pow(2) + a.pow(2)) + a;
        QVERIFY(close(r.outputs["y"], want));
    }

    void compareWhere()
    {
        auto x = randn({6, 10}) * 2;
        x[0][0] = 0.5;
        auto r = runFile("compare_where", {{"x", x}}, {{"y", out({6, 10})}}, {{"slope", 0.1}});
        REQUIRE_OK(r);
        const auto f = [](const at::Tensor& b) { return b.to(at::kFloat); };
        const auto want = at::where(x > 0, x, x * 0.1) + f(x <= -1) + 2 * f(x >= 1) +
                          4 * f(x == 0.5) + 8 * f(x != x) + 16 * f(x < -2) + 32 * f(x >= 2);
        QVERIFY(close(r.outputs["y"], want));
    }

    void reductions()
    {
        const auto x = randn({16, 48});
        auto r = runFile(
            "reductions", {{"x", x}},
            {{"row_sum", out({16, 1})}, {"col_max", out({48})}, {"total_min", out({1, 1})}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["row_sum"], x.sum(-1, true), 1e-5, 1e-5));
        QVERIFY(close(r.outputs["col_max"], std::get<0>(x.max(0))));
        QVERIFY(close(r.outputs["total_min"], x.min().reshape({1, 1})));
    }

    void softmaxFp16()
    {
        const auto x = randn({5, 40}, at::kHalf);
        auto r = runFile("softmax_builtin", {{"x", x}}, {{"y", out({5, 40}, at::kHalf)}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"], at::softmax(x.to(at::kFloat), -1).to(at::kHalf), 1e-3, 1e-3));
    }

    void matmulTransposedA()
    {
        const auto a = randn({32, 16}, at::kHalf), b = randn({32, 24}, at::kHalf);
        auto r = runFile("matmul_trans_a", {{"a", a}, {"b", b}}, {{"y", out({16, 24})}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"], at::matmul(a.to(at::kFloat).t(), b.to(at::kFloat))));
    }

    void matmulBatched()
    {
        const auto a = randn({2, 8, 16}), b = randn({2, 12, 16});
        auto r = runFile("matmul_batched", {{"a", a}, {"b", b}}, {{"y", out({2, 8, 12})}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"], at::matmul(a, b.transpose(1, 2)) * 0.5, 1e-5, 1e-5));
    }

    void castRoundTrip()
    {
        const auto x = randn({3, 7}) * 100;
        auto r = runFile("cast_roundtrip", {{"x", x}},
                         {{"y", out({3, 7})}, {"h", out({3, 7}, at::kHalf)}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], x.to(at::kHalf).to(at::kFloat)));
        QVERIFY(at::equal(r.outputs["h"], (x.to(at::kHalf).to(at::kFloat) * 2).to(at::kHalf)));
    }

    void tiledRows()
    {
        const auto x = randn({6, 32});
        auto r = runFile("tiled_rows", {{"x", x}}, {{"y", out({6, 32})}}, {{"scale", 2.0}});
        REQUIRE_OK(r);
        const auto rowStart = (at::arange(6).div(2, "floor") * 2).to(at::kFloat).unsqueeze(1);
        QVERIFY(close(r.outputs["y"], x * 2 + rowStart));
    }

    void reshapeTranspose()
    {
        const auto x = randn({3, 16});
        auto r = runFile("reshape_transpose", {{"x", x}}, {{"y", out({3, 16})}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], x.reshape({3, 4, 4}).transpose(1, 2).reshape({3, 16})));
    }

    // pypto.gathermask keeps one element of every two or four of the last dim (pattern modes 1-6),
    // or all of it (7).
    void gathermaskLanes()
    {
        const auto x = randn({4, 32});
        auto r =
            runFile("gathermask_lanes", {{"x", x}},
                    {{"first", out({4, 16})}, {"third", out({4, 8})}, {"whole", out({4, 32})}});
        REQUIRE_OK(r);
        using at::indexing::Slice;
        QVERIFY(at::equal(r.outputs["first"], x.index({Slice(), Slice(0, at::indexing::None, 2)})));
        QVERIFY(at::equal(r.outputs["third"], x.index({Slice(), Slice(2, at::indexing::None, 4)})));
        QVERIFY(at::equal(r.outputs["whole"], x));
    }

    void fullConcat()
    {
        const auto x = randn({2, 5});
        auto r = runFile("full_concat", {{"x", x}}, {{"y", out({2, 13})}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"], at::cat({x, at::full({2, 3}, 1.5), x * 2}, 1)));
    }

    void assembleTiles()
    {
        const auto x = randn({3, 8});
        auto r = runFile("assemble_tiles", {{"x", x}}, {{"y", out({3, 8})}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"],
                      at::cat({x.slice(1, 4, 8).exp() - 1, x.slice(1, 0, 4).exp()}, 1)));
    }

    // Tail tiles as PyPTO derives them; each kernel doubles x, whatever its shape.
    void tileBoundaries_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QList<qint64>>("shape");
        // A view at a boundary holds only its valid part; reshaping it with a valid_shape
        // ([rows, l_max] valid [rows, l]) keeps the valid part.
        QTest::newRow("reshape of a boundary view")
            << "    v = pypto.view(x, [4, 1, 8], [0, 0, 0], valid_shape=[4, 1, 6])\n"
               "    y[:] = pypto.mul(pypto.reshape(v, [4, 8], valid_shape=[4, 6]), 2.0)\n"
            << QList<qint64>{4, 1, 6};
        // A view that starts inside the tensor and runs past its end holds what is left.
        QTest::newRow("view past the end")
            << "    for i in pypto.loop(2):\n"
               "        for j in pypto.loop(2):\n"
               "            t = pypto.view(x, [4, 8], [i * 4, j * 8])\n"
               "            pypto.assemble(pypto.mul(t, 2.0), [i * 4, j * 8], y)\n"
            << QList<qint64>{6, 12};
    }

    void tileBoundaries()
    {
        QFETCH(QString, body);
        QFETCH(QList<qint64>, shape);
        const std::vector<int64_t> dims(shape.begin(), shape.end());
        const auto x = randn(dims);
        const std::vector<int64_t> outDims{dims.front(), dims.back()};
        auto r =
            runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(4, 8)\n" +
                          body.toStdString(),
                      {{"x", x}}, {{"y", out(outDims)}});
        REQUIRE_OK(r);
        QVERIFY(close(r.outputs["y"], x.reshape(outDims) * 2));
    }

    void clip()
    {
        const auto x = randn({4, 8}), lo = at::full({4, 8}, -0.2);
        auto r = runFile("clip_ops", {{"x", x}, {"lo", lo}}, {{"y", out({4, 8})}}, {{"hi", 0.7}});
        REQUIRE_OK(r);
        QVERIFY(at::equal(r.outputs["y"],
                          at::minimum(at::maximum(x.clamp_min(-0.5), lo), at::full({}, 0.7))));
    }

    void rmsNormRows()
    {
        const auto x = randn({4, 64}), w = randn({64});
        auto r =
            runFile("rms_norm_rows", {{"x", x}, {"w", w}}, {{"y", out({4, 64})}}, {{"eps", 1e-6}});
        REQUIRE_OK(r);
        QVERIFY(
            close(r.outputs["y"], x * ((x * x).sum(-1, true) / 64 + 1e-6).rsqrt() * w, 1e-5, 1e-5));
    }

    void controlFlow()
    {
        const auto x = randn({2, 3});
        auto add = runFile("control_flow", {{"x", x}}, {{"y", out({2, 3})}},
                           {{"mode", "add"}, {"steps", 3}});
        REQUIRE_OK(add);
        QVERIFY(close(add.outputs["y"], x * 3));
        auto other = runFile("control_flow", {{"x", x}}, {{"y", out({2, 3})}},
                             {{"mode", "none"}, {"steps", 9}});
        REQUIRE_OK(other);
        QVERIFY(close(other.outputs["y"], x * 0 + 4)); // min(steps, 4) iterations
    }

    // fp16 sums on the device are rounded once per vec tile and once per combination; the
    // simulator reproduces that, so its result differs from an fp32 sum by exactly that much.
    void fp16TiledSumEmulation()
    {
        const auto x = (at::rand({1, 4096}) * 0.01 + 1).to(at::kHalf);
        auto r = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(1, "
                           "64)\n    y[:] = pypto.sum(x, -1, True)\n",
                           {{"x", x}}, {{"y", out({1, 1}, at::kHalf)}});
        REQUIRE_OK(r);
        at::Tensor predicted;
        for (const auto& chunk : x.split(64, -1)) {
            const auto partial = chunk.to(at::kFloat).sum(-1, true).to(at::kHalf);
            predicted = predicted.defined()
                            ? (predicted.to(at::kFloat) + partial.to(at::kFloat)).to(at::kHalf)
                            : partial;
        }
        const double simulated = r.outputs["y"].item<double>();
        const double fp32 = x.to(at::kFloat).sum().item<double>();
        QCOMPARE(simulated, predicted.item<double>());
        QVERIFY(std::abs(simulated - fp32) >
                1.0); // fp16 spacing near 4096 is 4: the emulation matters
        QVERIFY(std::abs(simulated - fp32) < 64.0);
    }

    void deterministic()
    {
        const auto x = randn({16, 48}, at::kHalf);
        const std::map<std::string, SimOutput> outs{{"row_sum", out({16, 1}, at::kHalf)},
                                                    {"col_max", out({48}, at::kHalf)},
                                                    {"total_min", out({1, 1}, at::kHalf)}};
        auto a = runFile("reductions", {{"x", x}}, outs);
        auto b = runFile("reductions", {{"x", x}}, outs);
        for (const char* name : {"row_sum", "col_max", "total_min"})
            QVERIFY(at::equal(a.outputs[name], b.outputs[name]));
    }
};

QTEST_GUILESS_MAIN(TestSim)
#include "tst_sim.moc"
