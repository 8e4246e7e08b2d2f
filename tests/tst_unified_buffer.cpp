// The unified-buffer model of the simulator: what one vector op keeps in the unified buffer,
// counted as PyPTO's scheduler counts it, against each soc's buffer; real tile shapes of PyPTO's
// examples and models fit, and a kernel over the buffer gets the error with its numbers.
#include "sim/sim_ops.h"
#include "sim_test_helpers.h"

#include <QTest>
#include <functional>

using namespace ptowb;
using simtest::out;
using simtest::randn;
using simtest::runSource;
using simtest::SimOutput;

namespace {

std::string platformFile(const char* name)
{
    return std::string(PTOWB_SOURCE_DIR "/resources/platforms/") + name + ".json";
}

const char* const kTinyPlatform =
    R"({"name": "tiny", "cores": 1, "unified_buffer_bytes": 32768, "vector_fp16_elements_per_cycle": 128,
  "cube_fp16_flops_per_cycle": 8192, "clock_ghz": 1.0, "memory_gbps": 64.0, "source": "test numbers"})";

} // namespace

// A failed run ends the test with its diagnostic and traceback.
class TestUnifiedBuffer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void tileExceedingTheUnifiedBuffer()
    {
        auto r = runSource("import pypto\n\ndef kernel(x, y):\n    pypto.set_vec_tile_shapes(64, "
                           "128)\n    y[:] = x * (x + 1.0)\n",
                           {{"x", randn({128, 128})}}, {{"y", out({128, 128})}},
                           nlohmann::json::object(), kTinyPlatform);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.where()),
                 QStringLiteral("5:12 sim.tile the vec tile shape [64, 128] needs 65536 bytes of "
                                "unified buffer for pypto.mul (tiles: [64, 128] float32 32768 + "
                                "[64, 128] float32 32768, the result in place), more than the "
                                "32768 bytes of tiny"));
        // One operand and a number: the result takes the operand's buffer.
        auto fits = runSource("import pypto\n\ndef kernel(x, y):\n    "
                              "pypto.set_vec_tile_shapes(64, 128)\n    y[:] = x * 2.0\n",
                              {{"x", randn({128, 128})}}, {{"y", out({128, 128})}},
                              nlohmann::json::object(), kTinyPlatform);
        REQUIRE_OK(fits);
    }

    // What one op keeps in the unified buffer, counted as PyPTO's scheduler counts it: a tile
    // per distinct operand and one for the result, by each tensor's own dtype, the last dim
    // padded to 32 bytes, the result in an operand's buffer when size and width allow.
    void unifiedBufferCount()
    {
        std::string error;
        cost::Platform tiny = cost::loadPlatform(platformFile("generic"), error);
        QVERIFY2(error.empty(), error.c_str());
        tiny.name = "tiny";
        tiny.unifiedBufferBytes = 4096;
        auto message = [&](std::vector<std::int64_t> tile, auto op) -> std::string {
            sim::SimState s(tiny);
            s.vecTile = std::move(tile);
            try {
                op(s);
            } catch (const sim::OpError& e) {
                return e.message;
            }
            return "fits";
        };
        const at::Tensor h = at::ones({32, 64}, at::kHalf), f = at::ones({32, 64});
        // fp16 at 2 bytes: two [32, 32] inputs of 2048 bytes, the result in place of one.
        QCOMPARE(
            message({32, 32}, [&](sim::SimState& s) { sim::binaryOp(s, "add", {h}, {h * 2}); }),
            std::string("fits"));
        QCOMPARE(
            message({32, 32}, [&](sim::SimState& s) { sim::binaryOp(s, "add", {f}, {f * 2}); }),
            std::string("the vec tile shape [32, 32] needs 8192 bytes of unified buffer for "
                        "pypto.add (tiles: [32, 32] float32 4096 + [32, 32] float32 4096, "
                        "the result in place), more than the 4096 bytes of tiny"));
        // `x * x` reads one buffer; a number takes none.
        QCOMPARE(message({32, 32}, [&](sim::SimState& s) { sim::binaryOp(s, "mul", {f}, {f}); }),
                 std::string("fits"));
        QCOMPARE(message({32, 32},
                         [&](sim::SimState& s) {
                             sim::binaryOp(s, "mul", {f}, {std::nullopt, 2.0, false});
                         }),
                 std::string("fits"));
        // A broadcast [32, 1] operand is one 32-byte block per row; a bool result has a buffer
        // of its own.
        QCOMPARE(message({32, 32},
                         [&](sim::SimState& s) {
                             sim::binaryOp(s, "logical_and", {f}, {at::ones({32, 1})});
                         }),
                 std::string("the vec tile shape [32, 32] needs 6144 bytes of unified buffer for "
                             "pypto.logical_and (tiles: [32, 32] float32 4096 + [32, 1] float32 "
                             "1024, result [32, 32] bool 1024), more than the 4096 bytes of tiny"));
        // A reduction's result keeps one element per reduced row.
        QCOMPARE(
            message({8, 64}, [&](sim::SimState& s) { sim::reduceOp(s, "sum", f, {-1}, false); }),
            std::string("fits"));
        QCOMPARE(
            message({32, 64}, [&](sim::SimState& s) { sim::reduceOp(s, "sum", f, {-1}, true); }),
            std::string("the vec tile shape [32, 64] needs 9216 bytes of unified buffer for "
                        "pypto.sum (tiles: [32, 64] float32 8192, result [32, 1] float32 "
                        "1024), more than the 4096 bytes of tiny"));
    }

    // Tile shapes, dtypes and ops of PyPTO's own examples and models, which run on the device,
    // fit the unified buffer of their target (Atlas A2/A3: 196608 bytes, the smallest Ascend
    // one) as the simulator counts it.
    void realTileShapesFit()
    {
        std::string error;
        const cost::Platform a2 = cost::loadPlatform(platformFile("Ascend910B1"), error);
        QVERIFY2(error.empty(), error.c_str());
        QCOMPARE(a2.unifiedBufferBytes, std::int64_t(196608));
        auto t = [](std::vector<std::int64_t> shape, at::ScalarType type = at::kFloat) {
            return at::rand(shape).to(type) + 0.5;
        };
        auto n = [](double v) { return sim::Operand{std::nullopt, v, false}; };
        using Ops = std::function<void(sim::SimState&)>;
        const std::vector<std::tuple<const char*, std::vector<std::int64_t>, Ops>> cases = {
            {"examples/00_hello_world/hello_world.py: out[:] = x + y",
             {32, 32},
             [&](sim::SimState& s) {
                 sim::binaryOp(s, "add", {t({64, 64})}, {t({64, 64})});
             }},
            {"examples/02_intermediate/operators/softmax/softmax.py: softmax over [1, 32, 1, 256]",
             {1, 4, 1, 64},
             [&](sim::SimState& s) {
                 const at::Tensor x = t({1, 32, 1, 256});
                 const at::Tensor e = sim::unaryOp(
                     s, "exp",
                     sim::binaryOp(s, "sub", {x}, {sim::reduceOp(s, "amax", x, {-1}, true)}));
                 sim::binaryOp(s, "div", {e}, {sim::reduceOp(s, "sum", e, {-1}, true)});
             }},
            {"examples/02_intermediate/basic_nn/layer_normalization/layer_norm.py: bf16 layernorm",
             {64, 128},
             [&](sim::SimState& s) {
                 const at::Tensor x = t({32, 128}, at::kBFloat16), gamma = t({128}, at::kBFloat16);
                 const at::Tensor c = sim::binaryOp(
                     s, "sub", {x},
                     {sim::binaryOp(s, "div", {sim::reduceOp(s, "sum", x, {-1}, true)}, n(128))});
                 const at::Tensor var =
                     sim::reduceOp(s, "sum", sim::binaryOp(s, "mul", {c}, {c}), {-1}, true);
                 const at::Tensor std =
                     sim::unaryOp(s, "sqrt", sim::binaryOp(s, "add", {var}, n(1e-5)));
                 sim::binaryOp(s, "mul", {sim::binaryOp(s, "div", {c}, {std})}, {gamma});
             }},
            {"examples/02_intermediate/operators/activation/activation.py: x * sigmoid(x), bf16",
             {32, 128},
             [&](sim::SimState& s) {
                 const at::Tensor x = t({32, 128}, at::kBFloat16);
                 sim::binaryOp(s, "mul", {x}, {sim::unaryOp(s, "sigmoid", x)});
             }},
            {"examples/02_intermediate/basic_nn/ffn/ffn_module.py: gelu in fp32, relu in bf16",
             {16, 1024},
             [&](sim::SimState& s) {
                 const at::Tensor x = t({16, 1024});
                 const at::Tensor e = sim::unaryOp(
                     s, "exp",
                     sim::binaryOp(s, "mul", {sim::binaryOp(s, "mul", {x}, n(1.702))}, n(-1)));
                 const at::Tensor sig = sim::binaryOp(s, "div", {at::ones({16, 1024})},
                                                      {sim::binaryOp(s, "add", {e}, n(1))});
                 sim::binaryOp(s, "mul", {x}, {sig});
                 sim::binaryOp(s, "maximum", {t({16, 1024}, at::kBFloat16)},
                               {at::zeros({16, 1024}, at::kBFloat16)});
             }},
            {"models/qat/qat_impl.py: per-channel fake quantization",
             {32, 512},
             [&](sim::SimState& s) {
                 const at::Tensor scale = sim::binaryOp(s, "maximum", {t({512, 1})}, n(1e-6));
                 const at::Tensor q = sim::binaryOp(s, "div", {t({512, 1024})}, {scale});
                 const at::Tensor c = sim::clipOp(s, sim::roundDecimals(s, q, 0), n(-128), n(127));
                 sim::binaryOp(s, "mul", {c}, {scale});
             }},
            {"models/deepseek_v4/win_attention_impl.py: softmax of [256, 384] scores with sinks",
             {64, 256},
             [&](sim::SimState& s) {
                 const at::Tensor acc = sim::binaryOp(s, "mul", {t({256, 384})}, n(0.044));
                 const at::Tensor m = sim::reduceOp(s, "amax", acc, {-1}, true);
                 const at::Tensor e = sim::unaryOp(s, "exp", sim::binaryOp(s, "sub", {acc}, {m}));
                 const at::Tensor sum = sim::binaryOp(
                     s, "add", {sim::reduceOp(s, "sum", e, {-1}, true)},
                     {sim::unaryOp(s, "exp", sim::binaryOp(s, "sub", {t({256, 1})}, {m}))});
                 sim::binaryOp(s, "div", {e}, {sum});
             }},
            {"models/qwen3_next/gated_delta_rule_impl.py: l2norm of [128, 128]",
             {128, 128},
             [&](sim::SimState& s) {
                 const at::Tensor q = t({128, 128});
                 const at::Tensor ss =
                     sim::reduceOp(s, "sum", sim::binaryOp(s, "mul", {q}, {q}), {-1}, true);
                 sim::binaryOp(s, "div", {q},
                               {sim::unaryOp(s, "sqrt", sim::binaryOp(s, "add", {ss}, n(1e-6)))});
             }},
            {"models/deepseek_v4/mla_prolog_quant_v4_impl.py: dequant of [4, 32768]",
             {4, 4096},
             [&](sim::SimState& s) {
                 const at::Tensor d = sim::binaryOp(s, "mul", {t({4, 32768})}, {t({4, 1})});
                 sim::binaryOp(s, "mul", {d}, {t({1, 32768})});
             }},
            {"models/deepseek_v32_exp/sparse_attention_antiquant_impl.py: [2048, 128] * [2048, 1]",
             {128, 128},
             [&](sim::SimState& s) {
                 sim::binaryOp(s, "mul", {t({2048, 128})}, {t({2048, 1})});
             }},
            {"models/deepseek_v4/compressor_impl.py: score + ape, [1, 2, 1024] + [2, 1024]",
             {1, 2, 1024},
             [&](sim::SimState& s) {
                 sim::binaryOp(s, "add", {t({1, 2, 1024})}, {t({2, 1024})});
             }},
            {"docs/zh/tutorials/debug/performance.md: the advised first tile (64, 512), bf16 add",
             {64, 512},
             [&](sim::SimState& s) {
                 sim::binaryOp(s, "add", {t({128, 1024}, at::kBFloat16)},
                               {t({128, 1024}, at::kBFloat16)});
             }},
        };
        for (const auto& [source, tile, ops] : cases) {
            sim::SimState s(a2);
            s.vecTile = tile;
            try {
                ops(s);
            } catch (const sim::OpError& e) {
                QFAIL((std::string(source) + ": " + e.message).c_str());
            }
        }
    }

    // Every soc of PyPTO's platform configs has its unified buffer here.
    void platformsHaveTheirUnifiedBuffer()
    {
        const std::vector<std::pair<const char*, std::int64_t>> socs = {
            {"Kirin9030", 131072},        {"KirinX90", 131072},
            {"Ascend910B1", 196608},      {"Ascend910B2", 196608},
            {"Ascend910B3", 196608},      {"Ascend910B4", 196608},
            {"Ascend910C4", 196608},      {"Ascend950PR_9579", 253952},
            {"Ascend950PR_9589", 253952}, {"Ascend950DT_9572", 253952},
            {"Ascend950DT_9581", 253952}, {"Ascend950DT_9581X", 253952},
            {"Ascend950DT_9582", 253952}};
        for (const auto& [soc, bytes] : socs) {
            std::string error;
            const cost::Platform p = cost::loadPlatform(platformFile(soc), error);
            QVERIFY2(error.empty(), (std::string(soc) + ": " + error).c_str());
            QCOMPARE(p.name, std::string(soc));
            QCOMPARE(p.unifiedBufferBytes, bytes);
        }
    }
};

QTEST_GUILESS_MAIN(TestUnifiedBuffer)
#include "tst_unified_buffer.moc"
