// The simulator's cost estimate: fixed costs per vec tile, loop iterations overlapped as the
// platform says (cost::ElapsedTime), and the platform field that sets it.
#include "cost/cost_model.h"
#include "sim_harness.h"

#include <QString>
#include <QTest>
#include <cmath>
#include <fstream>

using namespace ptowb;
using simtest::runSource;

namespace {

at::Tensor randn(std::vector<std::int64_t> shape)
{
    return at::randn(shape);
}
simtest::OutputSpec out(std::vector<std::int64_t> shape)
{
    return {std::move(shape), at::kFloat};
}

} // namespace

class TestSimCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    // PyPTO runs a task per vec tile: an op's fixed cost is paid per tile it covers.
    void fixedCostIsPaidPerTile()
    {
        const std::string platform = R"({"name": "test", "cores": 1, "unified_buffer_bytes": 131072,
  "vector_fp16_elements_per_cycle": 128, "cube_fp16_flops_per_cycle": 8192, "clock_ghz": 1.0,
  "memory_gbps": 64.0, "vector_op_cycles": 100, "source": "test numbers"})";
        auto expCycles = [&](const char* tile) {
            auto r = runSource(std::string("import pypto\n\ndef kernel(x, y):\n    "
                                           "pypto.set_vec_tile_shapes(") +
                                   tile + ")\n    y[:] = pypto.exp(x)\n",
                               {{"x", randn({4, 8})}}, {{"y", out({4, 8})}},
                               nlohmann::json::object(), platform, true);
            if (!r.ok()) return -1.0;
            for (const auto& e : r.cost.events)
                if (e.what.rfind("pypto.exp", 0) == 0) return std::round(e.durationUs * 1e4) / 10;
            return -2.0;
        };
        // 32 fp32 elements at 64 per cycle: 0.5 cycles, plus 100 per tile.
        QCOMPARE(expCycles("4, 8"), 100.5);
        QCOMPARE(expCycles("1, 8"), 400.5);
        QCOMPARE(expCycles("2, 4"), 400.5);
        QCOMPARE(expCycles("1, 1"), 3200.5);
    }

    // The elapsed time overlaps a loop's iterations by the platform's parallel_iterations; the
    // work (every op summed, what the lines add up to) does not change.
    void loopIterationsOverlap_data()
    {
        QTest::addColumn<double>("parallel");
        QTest::addColumn<QString>("body");
        QTest::addColumn<double>("elapsedShare"); // elapsed / work
        const QString rows =
            "    for i in pypto.loop(4):\n        row = pypto.view(x, [1, 8], [i, 0])\n"
            "        y[i:i + 1, :] = pypto.exp(row)\n";
        QTest::newRow("sequential") << 1.0 << rows << 1.0;
        QTest::newRow("4 side by side") << 4.0 << rows << (1 + 3 / 4.0) / 4;
        QTest::newRow("2 side by side") << 2.0 << rows << (1 + 3 / 2.0) / 4;
        QTest::newRow("more than iterations") << 16.0 << rows << (1 + 3 / 16.0) / 4;
        // Nested: each outer iteration is its inner loop's longest iteration plus 1/2 of the
        // other, and the outer loop overlaps those the same way: (1 + 1/2) * (1 + 1/2) of 4.
        QTest::newRow("nested") << 2.0
                                << "    for i in pypto.loop(2):\n        for j in pypto.loop(2):\n"
                                   "            row = pypto.view(x, [1, 8], [i * 2 + j, 0])\n"
                                   "            y[i * 2 + j:i * 2 + j + 1, :] = pypto.exp(row)\n"
                                << 1.5 * 1.5 / 4;
        // A loop left by `break` ends there: two iterations, the second half overlapped.
        QTest::newRow("break") << 2.0
                               << "    for i in pypto.loop(4):\n        if i == 2:\n"
                                  "            break\n        row = pypto.view(x, [1, 8], [i, 0])\n"
                                  "        y[i:i + 1, :] = pypto.exp(row)\n"
                               << 1.5 / 2;
    }

    void loopIterationsOverlap()
    {
        QFETCH(double, parallel);
        QFETCH(QString, body);
        QFETCH(double, elapsedShare);
        const std::string platform =
            R"({"name": "test", "cores": 1, "unified_buffer_bytes": 131072,
  "vector_fp16_elements_per_cycle": 128, "cube_fp16_flops_per_cycle": 8192, "clock_ghz": 1.0,
  "memory_gbps": 64.0, "vector_op_cycles": 100, "memory_op_cycles": 50, "parallel_iterations": )" +
            std::to_string(parallel) + R"(, "source": "test numbers"})";
        // A run that fails inside a loop first: its abandoned loop must not touch the next run.
        auto failed = runSource("import pypto\n\ndef kernel(x, y):\n    for i in pypto.loop(4):\n"
                                "        raise ValueError('stop')\n",
                                {{"x", randn({4, 8})}}, {{"y", out({4, 8})}},
                                nlohmann::json::object(), platform, true);
        QVERIFY(!failed.ok());
        auto r = runSource(
            "import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(1, 8)\n" +
                body.toStdString(),
            {{"x", randn({4, 8})}}, {{"y", out({4, 8})}}, nlohmann::json::object(), platform, true);
        REQUIRE_OK(r);
        const double elapsed = r.answer.value("cost_total_us", 0.0);
        QVERIFY(r.cost.totalUs > 0);
        QVERIFY2(std::abs(elapsed / r.cost.totalUs - elapsedShare) < 1e-9,
                 (std::to_string(elapsed) + " of " + std::to_string(r.cost.totalUs)).c_str());
    }

    void parallelIterationsBelowOneIsRefused()
    {
        const std::string dir = simtest::freshDir();
        std::ofstream(dir + "/p.json")
            << R"({"name": "t", "cores": 1, "unified_buffer_bytes": 1, "vector_fp16_elements_per_cycle": 1,
  "cube_fp16_flops_per_cycle": 1, "clock_ghz": 1, "memory_gbps": 1, "parallel_iterations": 0.5})";
        std::string error;
        cost::loadPlatform(dir + "/p.json", error);
        QVERIFY2(error.find("parallel_iterations must be at least 1") != std::string::npos,
                 error.c_str());
        std::ofstream(dir + "/q.json")
            << R"({"name": "t", "cores": 1, "unified_buffer_bytes": 1, "vector_fp16_elements_per_cycle": 1,
  "cube_fp16_flops_per_cycle": 1, "clock_ghz": 1, "memory_gbps": 1, "parallel_iterations": "many"})";
        error.clear();
        cost::loadPlatform(dir + "/q.json", error);
        QVERIFY(!error.empty());
    }
};

QTEST_GUILESS_MAIN(TestSimCost)
#include "tst_sim_cost.moc"
