// How simulator runs report and end: runtime errors at the kernel's line:column, the cost and
// trace of a run, PyPTO-style kernels of tests/data/style_kernels, annotation checks, print
// output, a kernel that never ends and a crashing interpreter.
#include "sim_test_helpers.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

using namespace ptowb;
using namespace simtest;

class TestSimRuns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void runtimeDiagnostics_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("broadcast")
            << "    y[:] = x + w\n"
            << "4:12 sim.shape pypto.add cannot broadcast shapes [4, 8] and [5]";
        QTest::newRow("view") << "    v = pypto.view(x, [2, 8], [4, 0])\n"
                              << "4:9 sim.view pypto.view: a view of shape [2, 8] at offsets [4, "
                                 "0] does not fit in a tensor of shape [4, 8] (dim 0: 4 + 2 > 4)";
        QTest::newRow("store")
            << "    y[3:, 4:] = x\n"
            << "4:5 sim.view pypto.assemble: a tensor of shape [4, 8] at offsets [3, 4] does not "
               "fit in a tensor of shape [4, 8] (dim 0: 3 + 4 > 4)";
        QTest::newRow("tile rank")
            << "    pypto.set_vec_tile_shapes(8)\n    y[:] = pypto.sum(x, -1, True) + x\n"
            << "5:12 sim.tile the vec tile shape [8] (set at line 4) has rank 1, but pypto.sum "
               "works on a rank-2 tensor [4, 8]; "
               "PyPTO needs a tile dim for every tensor dim";
        QTest::newRow("tile dim")
            << "    pypto.set_vec_tile_shapes(0, 8)\n"
            << "4:5 sim.tile pypto.set_vec_tile_shapes: every tile dim must be > 0, got [0, 8]";
        QTest::newRow("index") << "    y[:] = x[0, 0, 0]\n"
                               << "4:12 sim.view too many indices (3) for a tensor of shape [4, 8]";
        QTest::newRow("name") << "    y[:] = z\n"
                              << "4:12 kernel.python NameError: name 'z' is not defined";
        QTest::newRow("keyword")
            << "    y[:] = pypto.exp(x, alpha=2)\n"
            << "4:12 kernel.python TypeError: exp() got an unexpected keyword argument 'alpha'";
        QTest::newRow("matmul") << "    y[:] = pypto.matmul(x, x, pypto.DT_FP32)\n"
                                << "4:12 sim.shape pypto.matmul inner dimensions differ: input is "
                                   "[4, 8], mat2 is [4, 8] (k = 8 vs 4)";
        QTest::newRow("branch on data") << "    if x:\n        pass\n"
                                        << "4:5 sim.error the truth of a tensor depends on its "
                                           "data, which a kernel cannot branch on; use pypto.where";
        QTest::newRow("gathermask mode") << "    y[:] = pypto.gathermask(x, 8)\n"
                                         << "4:12 kernel.python ValueError: pypto.gathermask: "
                                            "pattern_mode must be 1 to 7, got 8";
        QTest::newRow("gathermask lanes")
            << "    y[:] = pypto.gathermask(w, 3)\n"
            << "4:12 sim.error pypto.gathermask: pattern_mode 3 takes one element of every 4, so "
               "the last dim must be a multiple of 4, got [5]";
        QTest::newRow("not simulated")
            << "    y[:] = pypto.cumsum(x, 1)\n"
            << "4:12 sim.error not supported by the simulator: pypto.cumsum";
        // PyPTO's compiled core imports, any name in it says it is not simulated when called;
        // op_wrapper passes the arguments through.
        QTest::newRow("compiled core")
            << "    from pypto import pypto_impl\n"
               "    from pypto.operation import op_wrapper\n"
               "    div = op_wrapper(lambda t, v: pypto_impl.ScalarDivS(t, v, True))\n"
               "    y[:] = div(x, 2.0)\n"
            << "6:35 sim.error not supported by the simulator: pypto.pypto_impl.ScalarDivS";
        QTest::newRow("compiled core, nested")
            << "    from pypto.pypto_impl import ir\n    ir.create_op_call(x)\n"
            << "5:5 sim.error not supported by the simulator: pypto.pypto_impl.ir.create_op_call";
        // PyPTO's exception classes exist, with its constructor arguments and messages.
        QTest::newRow("pypto error")
            << "    from pypto.error import FeError\n    raise FeError(ValueError('bad tile'))\n"
            << "5:5 kernel.python FeError: ErrCode: F0FFFF, ValueError: bad tile";
        QTest::newRow("unsupported dtype")
            << "    y[:] = pypto.cast(x, pypto.DT_FP8)\n"
            << "4:12 sim.error not supported by the simulator: pypto.DT_FP8";
        QTest::newRow("assert") << "    assert x.shape[0] == 5, 'need 5 rows'\n"
                                << "4:12 kernel.python AssertionError: need 5 rows";
    }

    void runtimeDiagnostics()
    {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        auto r = runSource("import pypto\n\ndef kernel(x, w, y):\n" + body.toStdString(),
                           {{"x", randn({4, 8})}, {"w", randn({5})}}, {{"y", out({4, 8})}});
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.where()), expected);
    }

    void costAndTrace()
    {
        auto r = runSource("import pypto\n\ndef kernel(a, b, y):\n    c = pypto.matmul(a, b, "
                           "pypto.DT_FP32)\n    y[:] = pypto.exp(c)\n",
                           {{"a", randn({64, 32})}, {"b", randn({32, 16})}}, {{"y", out({64, 16})}},
                           nlohmann::json::object(), kTestPlatform, true);
        REQUIRE_OK(r);
        // the cube: 2*64*16*32 flops / 8192 per cycle at 1 GHz = 8 cycles = 0.008 us, then a and
        // b read from global memory (a load each)
        QCOMPARE(r.cost.events.size(), std::size_t(5)); // + exp (c is no global) and y's store
        QCOMPARE(r.cost.events.at(0).durationUs, 0.008);
        QCOMPARE(r.cost.events.at(1).unit, cost::UnitKind::Memory);
        QCOMPARE(r.cost.events.at(1).what, std::string("load [64, 32]"));
        QCOMPARE(r.cost.events.at(2).what, std::string("load [32, 16]"));
        QVERIFY(r.cost.totalUs > 0.008);
        QCOMPARE(r.cost.platform, std::string("test"));
        const auto byLine = r.cost.byLine();
        QCOMPARE(byLine.size(), std::size_t(2));
        QCOMPARE(byLine[0].line, 4);
        QCOMPARE(byLine[0].executions, 3); // two loads and the matmul
        QCOMPARE(byLine[0].unitUs[int(cost::UnitKind::Cube)], 0.008);
        QVERIFY(byLine[0].firstOp.find("pypto.matmul") != std::string::npos);
        QCOMPARE(r.captures.size(), std::size_t(2));
        QCOMPARE(r.captures[0].line, 4);
        QCOMPARE(r.captures[0].name, std::string("matmul"));

        // In a loop, each line keeps the value of every iteration (the result of its last op),
        // and its cost counts every execution.
        auto looped = runSource(
            "import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(1, 8)\n    for i in "
            "pypto.loop(4):\n"
            "        row = pypto.view(x, [1, 8], [i, 0])\n        y[i:i + 1, :] = pypto.exp(row) * "
            "2.0\n",
            {{"x", randn({4, 8})}}, {{"y", out({4, 8})}}, nlohmann::json::object(), kTestPlatform,
            true);
        REQUIRE_OK(looped);
        QCOMPARE(looped.captures.size(), std::size_t(8)); // lines 6 and 7, 4 iterations each
        for (int k = 0; k < 4; ++k) {
            const auto& view = looped.captures[std::size_t(k)];
            const auto& product = looped.captures[std::size_t(4 + k)];
            QCOMPARE(view.line, 6);
            QCOMPARE(view.execution, k + 1);
            QCOMPARE(view.name, std::string("view"));
            QCOMPARE(product.line, 7);
            QCOMPARE(product.execution, k + 1);
            QCOMPARE(product.name, std::string("mul")); // exp, then mul: the line's result
            QVERIFY(
                at::equal(simtest::capturedValue(product), looped.outputs["y"].slice(0, k, k + 1)));
        }
        for (const auto& line : looped.cost.byLine())
            if (line.line == 7)
                QCOMPARE(line.executions, 12); // exp, multiply and store per iteration

        // A loop on one line, run 300 times: the first 255 iterations and the last are kept.
        auto longLoop = runSource("import pypto\n\ndef kernel(x, y):\n    acc = x\n    for i in "
                                  "pypto.loop(300): acc = acc + 1.0\n"
                                  "    y[:] = acc\n",
                                  {{"x", at::zeros({2, 8})}}, {{"y", out({2, 8})}},
                                  nlohmann::json::object(), "", true);
        REQUIRE_OK(longLoop);
        std::vector<int> executions;
        for (const auto& c : longLoop.captures)
            if (c.line == 5) executions.push_back(c.execution);
        QCOMPARE(executions.size(), std::size_t(256));
        QCOMPARE(executions[254], 255);
        QCOMPARE(executions.back(), 300);
        QCOMPARE(simtest::capturedValue(longLoop.captures[255]).max().item<float>(), 300.0f);
    }

    // Kernels written in the styles real PyPTO files use, run unmodified.
    void styleKernels()
    {
        auto style = [](const char* name, const std::map<std::string, at::Tensor>& inputs,
                        const std::map<std::string, SimOutput>& outputs) {
            return runSource(kernelText(QStringLiteral("style_kernels"), name), inputs, outputs);
        };
        const auto x = randn({4, 64});
        {
            auto r = style("module_constants", {{"x", x}}, {{"y", out({4, 64})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], x * 0.5 + 1));
        }
        {
            const auto w = randn({64});
            auto r = style("helpers_and_config", {{"x", x}, {"w", w}}, {{"y", out({4, 64})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], x * ((x * x).sum(-1, true) / 64 + 1e-6).rsqrt() * w, 1e-5,
                          1e-5));
        }
        {
            auto r = style("factory_closure", {{"x", x}}, {{"y", out({4, 64})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], x * 3 - 1));
        }
        {
            const auto x7 = randn({7, 32});
            auto r = style("loop_unroll_tail", {{"x", x7}}, {{"y", out({7, 32})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], at::cat({x7.slice(0, 0, 6).exp(), -x7.slice(0, 6, 7)})));
        }
        {
            const auto x8 = randn({8, 16});
            auto r = style("dynamic_valid_shape", {{"x", x8}}, {{"y", out({8, 16})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], x8 * 2));
        }
        {
            const auto b = randn({3, 32}, at::kBFloat16);
            auto r = style("multi_output_bf16", {{"x", b}},
                           {{"doubled", out({3, 32}, at::kBFloat16)}, {"row_sum", out({3, 1})}});
            REQUIRE_OK(r);
            QVERIFY(at::equal(r.outputs["doubled"], (b.to(at::kFloat) * 2).to(at::kBFloat16)));
            QVERIFY(at::equal(r.outputs["row_sum"],
                              b.to(at::kFloat).sum(-1, true).to(at::kBFloat16).to(at::kFloat)));
        }
        {
            const auto x2 = randn({2, 8}) * 5;
            auto r = style("comprehensions_del_mod", {{"x", x2}},
                           {{"y", out({2, 8})}, {"z", out({2, 8})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"],
                          at::remainder(at::cat({x2.slice(1, 4, 8), x2.slice(1, 0, 4)}, 1), 3.0),
                          1e-5, 1e-5));
            QVERIFY(at::equal(r.outputs["z"], at::floor(x2 / 2)));
        }
        {
            auto r = style("loop_markers_cond", {{"x", x}}, {{"y", out({1, 64})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], x.sum(0, true), 1e-5, 1e-5));
        }
        {
            auto r = style("print_assert_starargs", {{"x", x}}, {{"y", out({4, 64})}});
            REQUIRE_OK(r);
            QVERIFY(at::equal(r.outputs["y"], x.relu()));
            QCOMPARE(r.answer.value("log", ""), std::string("kernel shape [4, 64]\n"));
        }
        {
            const auto a = randn({8, 32}), b = randn({16, 32}), bias = randn({1, 16});
            auto r =
                style("matmul_bias", {{"a", a}, {"b", b}, {"bias", bias}}, {{"y", out({8, 16})}});
            REQUIRE_OK(r);
            QVERIFY(close(r.outputs["y"], at::matmul(a, b.t()) + bias, 1e-5, 1e-5));
        }
        {
            const auto x4 = randn({4, 4});
            auto r = style("index_assign", {{"x", x4}}, {{"y", out({4, 4})}});
            REQUIRE_OK(r);
            auto want = at::zeros({4, 4});
            want.slice(1, 1, 3)[0].copy_(x4[0].slice(0, 0, 2));
            want.slice(1, 1, 3)[3].copy_(x4[1].slice(0, 0, 2));
            want.select(1, 3).fill_(7);
            QVERIFY(at::equal(r.outputs["y"], want));
        }
    }

    void annotationsAreChecked()
    {
        auto r = runSource(
            "import pypto\n\ndef kernel(x: pypto.Tensor([], pypto.DT_FP16), y):\n    y[:] = x\n",
            {{"x", randn({2})}}, {{"y", out({2})}});
        QCOMPARE(QString::fromStdString(r.where()),
                 QStringLiteral("3:1 kernel.bind kernel parameter 'x' is annotated pypto.DT_FP16, "
                                "but the case passes pypto.DT_FP32"));
        auto rank = runSource("import pypto\n\ndef kernel(x: pypto.Tensor((4, 64, 2), "
                              "pypto.DT_FP32), y):\n    y[:] = x\n",
                              {{"x", randn({4, 64})}}, {{"y", out({4, 64})}});
        QCOMPARE(QString::fromStdString(rank.where()),
                 QStringLiteral("3:1 kernel.bind kernel parameter 'x' is annotated with 3 dims, "
                                "but the case passes shape [4, 64]"));
        // A shape of STATIC / DYNAMIC markers (PyPTO's status shape) is the least rank, as
        // PyPTO's jit checks it: kimi annotates its [1, 1, D] gamma [pypto.STATIC, pypto.STATIC].
        const std::string status = "import pypto\n\ndef kernel(x: pypto.Tensor([pypto.STATIC, "
                                   "pypto.DYNAMIC], pypto.DT_FP32), y):\n    y[:] = x\n";
        auto more = runSource(status, {{"x", randn({1, 1, 4})}}, {{"y", out({1, 1, 4})}});
        REQUIRE_OK(more);
        auto fewer = runSource(status, {{"x", randn({4})}}, {{"y", out({4})}});
        QCOMPARE(QString::fromStdString(fewer.where()),
                 QStringLiteral("3:1 kernel.bind kernel parameter 'x' is annotated with at least 2 "
                                "dims, but the case passes shape [4]"));
        // PyPTO takes FP4 data in a uint8 tensor: what is missing is the simulator's arithmetic.
        auto packed = runSource("import pypto\n\ndef kernel(x: pypto.Tensor([], "
                                "pypto.DT_FP4_E2M1), y):\n    y[:] = x\n",
                                {{"x", at::zeros({4, 8}, at::kByte)}}, {{"y", out({4, 8})}});
        QCOMPARE(QString::fromStdString(packed.where()),
                 QStringLiteral("3:1 sim.unsupported kernel parameter 'x' is annotated "
                                "pypto.DT_FP4_E2M1, whose data PyPTO takes in a uint8 tensor: not "
                                "supported by the simulator: pypto.DT_FP4_E2M1"));
        auto unbound = runSource("import pypto\n\ndef kernel(x, y, z):\n    y[:] = x\n",
                                 {{"x", randn({2})}}, {{"y", out({2})}});
        QCOMPARE(QString::fromStdString(unbound.where()),
                 QStringLiteral("3:1 kernel.bind kernel parameter 'z' binds to no input, output, "
                                "parameter or kernel argument of op.json"));
    }

    void printGoesToTheLog()
    {
        auto r = runSource(
            "import pypto\n\ndef kernel(x, y):\n    print('rows', x.shape[0])\n    y[:] = x\n",
            {{"x", randn({3, 2})}}, {{"y", out({3, 2})}});
        REQUIRE_OK(r);
        QCOMPARE(r.answer.value("log", ""), std::string("rows 3\n"));
    }

    // An endless loop is stopped at its line by the time limit; Cancel likewise; the worker
    // serves the next case. Each kernel touches a file as its loop starts: the times are measured
    // from there, since the limit also counts the kernel's start-up, which a loaded machine slows.
    void endlessLoopIsStopped()
    {
        QTemporaryDir dir;
        const std::filesystem::path started =
            (dir.path() + QStringLiteral("/started")).toStdString();
        const std::string touch = "    open('" + started.string() + "', 'w').close()\n";
        const std::string endless =
            "import pypto\n\ndef kernel(x, y):\n" + touch + "    while True:\n        x = x\n";
        // A limit the start-up used up stops the kernel before its loop: double it until the
        // loop ran.
        SimRun r;
        double limit = 1.0;
        for (; limit <= 16; limit *= 2) {
            std::filesystem::remove(started);
            r = runSource(endless, {{"x", randn({2})}}, {{"y", out({2})}}, nlohmann::json::object(),
                          "", false, "kernel", limit);
            if (std::filesystem::exists(started)) break;
        }
        QVERIFY2(std::filesystem::exists(started), "the loop never started within 16 s");
        const auto stoppedAfter = std::filesystem::file_time_type::clock::now() -
                                  std::filesystem::last_write_time(started);
        QVERIFY(!r.ok());
        QCOMPARE(r.answer.value("code", ""), std::string("sim.timeout"));
        QVERIFY2(r.answer.value("line", 0) == 5 || r.answer.value("line", 0) == 6,
                 r.where().c_str());
        // The limit, one second for the kernel to report its line, and a margin for the load.
        QVERIFY(stoppedAfter < std::chrono::duration<double>(limit + 1.0 + 3.0));

        std::filesystem::remove(started);
        std::atomic<bool> cancel{false};
        QElapsedTimer sinceCancel;
        std::thread canceller([&] {
            for (int k = 0; k < 6000 && !std::filesystem::exists(started); ++k)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            sinceCancel.start();
            cancel = true;
        });
        auto c = runSource("import pypto\n\ndef kernel(x, y):\n" + touch +
                               "    for i in pypto.loop(10000000):\n"
                               "        for j in pypto.loop(10000000):\n            pass\n",
                           {{"x", randn({2})}}, {{"y", out({2})}}, nlohmann::json::object(), "",
                           false, "kernel", 600.0, &cancel);
        const qint64 stoppingMs = sinceCancel.elapsed();
        canceller.join();
        QVERIFY2(std::filesystem::exists(started), "the loop never started within 60 s");
        QCOMPARE(c.answer.value("code", ""), std::string("sim.cancelled"));
        // Cancel stops it within a second of the click (see WorkerClient::call), plus the margin.
        QVERIFY2(stoppingMs < 2000, qPrintable(QString::number(stoppingMs)));
        auto next = runSource("import pypto\n\ndef kernel(x, y):\n    y[:] = x + 1.0\n",
                              {{"x", at::zeros({2})}}, {{"y", out({2})}});
        REQUIRE_OK(next);
        QVERIFY(at::equal(next.outputs["y"], at::ones({2})));
    }

    // A crash of the interpreter is a case error, and the next case gets a fresh worker.
    void crashIsACaseError()
    {
        auto r = runSource("import ctypes\n\ndef kernel(x, y):\n    ctypes.string_at(0)\n",
                           {{"x", randn({2})}}, {{"y", out({2})}});
        QCOMPARE(r.answer.value("code", ""), std::string("sim.crashed"));
        QVERIFY(r.answer.value("message", "").find("segmentation fault") != std::string::npos);
        auto next = runSource("import pypto\n\ndef kernel(x, y):\n    y[:] = x * 0.0\n",
                              {{"x", at::ones({2})}}, {{"y", out({2})}});
        REQUIRE_OK(next);
    }
};

QTEST_GUILESS_MAIN(TestSimRuns)
#include "tst_sim_runs.moc"
