// Import's proposal on its own, with nothing run: the shape, dtype and dim rules inferred from
// recorded calls, and recordings of the wrong shape, which give an error or a proposal, never a
// crash.
#include "importer/import_proposal.h"
#include "importer/shape_rules.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace ptowb;
using namespace ptowb::importer;

class TestImportProposal : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shapeRules();
    void dtypeAndDimRules();
    void malformedRecordings();
};

void TestImportProposal::shapeRules()
{
    auto call = [](std::vector<RecordedTensor> inputs,
                   std::map<std::string, std::int64_t> ints = {}) {
        return RecordedCall{std::move(inputs), std::move(ints)};
    };
    // matmul over two calls
    std::vector<RecordedCall> mm = {call({{"a", {4, 8}, "float32"}, {"b", {8, 16}, "float32"}}),
                                    call({{"a", {2, 32}, "float32"}, {"b", {32, 5}, "float32"}})};
    QCOMPARE(inferShapeRule(mm, {{4, 16}, {2, 5}}),
             std::optional<std::string>("[a.shape[0], b.shape[1]]"));
    // the same shape as an input
    QCOMPARE(inferShapeRule(mm, {{8, 16}, {32, 5}}), std::optional<std::string>("b.shape"));
    // a reduction with keepdim
    QCOMPARE(inferShapeRule(mm, {{4, 1}, {2, 1}}), std::optional<std::string>("[a.shape[0], 1]"));
    // a concatenation
    QCOMPARE(inferShapeRule(mm, {{4, 24}, {2, 37}}),
             std::optional<std::string>("[a.shape[0], a.shape[1] + b.shape[1]]"));
    // an int parameter
    std::vector<RecordedCall> withParam = {call({{"x", {4, 64}, "float16"}}, {{"channels", 10}}),
                                           call({{"x", {6, 64}, "float16"}}, {{"channels", 20}})};
    QCOMPARE(inferShapeRule(withParam, {{4, 10}, {6, 20}}),
             std::optional<std::string>("[x.shape[0], channels]"));
    // nothing reproduces it, or the rank changes
    QCOMPARE(inferShapeRule(withParam, {{4, 3}, {6, 7}}), std::nullopt);
    QCOMPARE(inferShapeRule(withParam, {{4}, {6, 1}}), std::nullopt);
    QCOMPARE(inferShapeRule({}, {}), std::nullopt);
    QCOMPARE(inferShapeRule(withParam, {{4}}), std::nullopt);
    // an input's shape, whatever the rank of each call
    std::vector<RecordedCall> ranks = {call({{"a", {1, 2, 3}, "float32"}}),
                                       call({{"a", {1, 1, 2, 3}, "float32"}})};
    QCOMPARE(inferShapeRule(ranks, {{1, 2, 3}, {1, 1, 2, 3}}),
             std::optional<std::string>("a.shape"));
}

void TestImportProposal::dtypeAndDimRules()
{
    std::vector<RecordedCall> calls = {
        RecordedCall{{{"x", {4, 64}, "float16"}, {"i", {4}, "int32"}}, {}},
        RecordedCall{{{"x", {8, 32}, "float32"}, {"i", {8}, "int32"}}, {}}};
    QCOMPARE(inferDtypeRule(calls, {"float16", "float32"}), std::optional<std::string>("x.dtype"));
    QCOMPARE(inferDtypeRule(calls, {"int32", "int32"}), std::optional<std::string>("i.dtype"));
    QCOMPARE(inferDtypeRule(calls, {"bfloat16", "bfloat16"}),
             std::optional<std::string>("bfloat16"));
    QCOMPARE(inferDtypeRule(calls, {"bfloat16", "float16"}), std::nullopt);
    QCOMPARE(inferDimRule(calls, {64, 32}), std::optional<std::string>("x.shape[1]"));
    QCOMPARE(inferDimRule(calls, {3, 3}), std::nullopt);
}

void TestImportProposal::malformedRecordings()
{
    using json = nlohmann::json;
    // Wrong types everywhere: an error or a proposal, never a crash or an exception.
    const std::vector<json> bad = {
        json(),
        json::array(),
        json(3),
        json{{"kernels", 5}},
        json{{"kernels", json::array({json{{"name", 3}, {"params", "x"}}})}},
        json{{"kernels", json::array({json{
                             {"name", "k"},
                             {"params", json::array({json{{"name", "x"}}, 7, json::array()})}}})},
             {"calls",
              json::array(
                  {json{{"kernel", "k"},
                        {"module_level", true},
                        {"args",
                         json::array({json{{"name", "x"}, {"kind", "tensor"}, {"shape", "big"}}})}},
                   json{{"kernel", "k"}, {"args", 4}}, 5})},
             {"goldens",
              json::array(
                  {json{{"function", "g"}, {"args", json::array({1, 2})}, {"matches", "all"}}})},
             {"compares", json::array({json{{"call", 0}, {"output", 4}, {"rtol", "x"}}})},
             {"golden_sources", json{{"g", 3}}},
             {"local_modules",
              json::array({1, "/etc/passwd", json{{"file", "/etc/passwd"}, {"path", "../../x"}},
                           json{{"file", "/etc/passwd"}, {"path", "/etc/x.py"}},
                           json{{"file", "/etc/passwd"}, {"path", "a/../../b.py"}},
                           json{{"file", 3}, {"path", json::array()}}})}},
    };
    for (const auto& recording : bad) {
        Proposal p;
        try {
            p = propose(recording, "/tmp/kernel.py", "", "");
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("propose threw on %1: %2")
                                 .arg(QString::fromStdString(recording.dump()), e.what())));
        }
        QVERIFY(!p.error.empty() || p.op.contains("outputs"));
        for (const auto& f : p.files)
            QVERIFY(f.project.find("..") == std::string::npos && f.project.front() != '/');
    }
    // A deep recording.
    json deep = json::array();
    for (int i = 0; i < 10000; ++i) {
        json next = json::array();
        next.push_back(std::move(deep));
        deep = std::move(next);
    }
    QVERIFY(!propose(json{{"kernels", deep}}, "/tmp/kernel.py", "", "").error.empty());
    // Several kernels and none chosen, or a name that is not there.
    json two = {{"kernels", json::array({json{{"name", "a"}, {"params", json::array()}},
                                         json{{"name", "b"}, {"params", json::array()}}})}};
    QVERIFY(propose(two, "/tmp/kernel.py", "", "").error.find("a, b") != std::string::npos);
    QVERIFY(propose(two, "/tmp/kernel.py", "c", "").error.find("no jit kernel named 'c'") !=
            std::string::npos);
    QCOMPARE(propose(two, "/tmp/kernel.py", "b", "").kernel, std::string("b"));
}

QTEST_GUILESS_MAIN(TestImportProposal)
#include "tst_import_proposal.moc"
