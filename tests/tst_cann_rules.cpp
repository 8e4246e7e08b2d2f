// The CANN rule emitter and its inline support, compiled as C++11 with the old ABI: on known
// values every rule of the shared table gives what the workbench evaluator gives (or fails
// where it fails); on GE's unknown dims (-1) and ranks (-2) rules propagate them — a copied
// dim stays unknown, arithmetic on one is unknown, a comparison that needs one is unknown
// (so a constraint on it is deferred), an unknown rank stays unknown where the rule needs it.
#include "cann_test_support.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/cpp_rule_support.h"
#include "rule_table.h"

#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

using namespace ptowb;
using namespace ptowb::rules;

namespace {

// The fixture of the shared table plus tensors the graph only partly knows.
struct UnknownFixture : testing::Fixture
{
    UnknownFixture() { scope.inputs.insert(scope.inputs.end(), {"u", "r", "k"}); }
};

// Rules over u (dims [?, 64], float16), r (unknown rank, float32) and k ([4, ?, 8]), with the
// value the emitted C++ must print ("?" unknown, "?rank" an unknown rank).
const std::vector<std::pair<const char*, const char*>> kUnknownRows = {
    {"u.shape[0]", "?"},
    {"u.shape[1]", "64"},
    {"u.shape[-1]", "64"},
    {"u.shape", "[?, 64]"},
    {"u.rank", "2"},
    {"r.rank", "?"},
    {"r.shape", "?rank"},
    {"r.shape[0]", "?"},
    {"u.numel", "?"},
    {"prod(u.shape[1:])", "64"},
    {"sum(u.shape)", "?"},
    {"u.shape[0] * 2", "?"},
    {"-u.shape[0]", "?"},
    {"abs(u.shape[0])", "?"},
    {"ceil_div(u.shape[0], 2)", "?"},
    {"u.shape[0] // 0", "error"},
    {"u.shape[0] * 0.5 > 1.0", "?"},
    {"1 <= channels <= u.shape[0]", "?"},
    {"1 <= channels <= u.shape[1]", "True"},
    {"100 <= channels <= u.shape[0]", "False"},
    {"channels > 100 and u.shape[0] > 1", "False"},
    {"u.shape[0] > 1 and channels > 100", "False"},
    {"u.shape[0] > 1 and channels > 1", "?"},
    {"u.shape[0] > 1 or channels > 1", "True"},
    {"not u.shape[0] > 1", "?"},
    {"[u.shape[0], channels]", "[?, 32]"},
    {"u.shape[1:]", "[64]"},
    {"r.shape[1:]", "?rank"},
    {"u.shape + [2]", "[?, 64, 2]"},
    {"r.shape + [2]", "?rank"},
    {"u.shape * 2", "[?, 64, ?, 64]"},
    {"r.shape * 0", "[]"},
    {"len(r.shape)", "?"},
    {"max(u.shape)", "?"},
    {"max(u.shape[1], 2)", "64"},
    {"min(u.shape[0], 2)", "?"},
    {"u.shape == [4, 64]", "?"},
    {"u.shape == [4, 65]", "False"},
    {"u.shape == [1, 2, 3]", "False"},
    {"r.shape == [1]", "?"},
    {"u.shape[0] in [1, 2]", "?"},
    {"64 in u.shape", "True"},
    {"3 in u.shape", "?"},
    {"broadcast(u.shape, [3, 64])", "[3, 64]"},
    {"broadcast(u.shape, [1, 64])", "[?, 64]"},
    {"broadcast(u.shape, [3, 5])", "error"},
    {"broadcast(u.shape, r.shape)", "?rank"},
    {"matmul_shape(u.shape, [64, 8])", "[?, 8]"},
    {"matmul_shape(u.shape, [32, 8])", "error"},
    {"matmul_shape(k.shape, [8, 2])", "[4, ?, 2]"},
    {"matmul_shape([8, 2], u.shape, True)", "[2, 64]"},
    {"matmul_shape(r.shape, [8, 2])", "?rank"},
    {"reduce(u.shape, 1)", "[?]"},
    {"reduce(u.shape, 0, True)", "[1, 64]"},
    {"reduce(r.shape, [])", "[]"},
    {"reduce(r.shape, 0)", "?rank"},
    {"transpose(u.shape, 0, 1)", "[64, ?]"},
    {"transpose(r.shape, 0, 1)", "?rank"},
    {"u.shape[0] if flag else 3", "?"},
    {"3 if u.shape[0] > 1 else 3", "3"},
    {"3 if u.shape[0] > 1 else 4", "?"},
    {"[1, 2] if u.shape[0] > 1 else [1, 3]", "[1, ?]"},
    {"x.shape[5] if u.shape[0] > 1 else 7", "7"},
    {"u.dtype", "d6"},
    {"promote(u.dtype, r.dtype)", "d8"},
};

const char* const kProgramHead = R"CPP(
#include <iostream>
#include <sstream>

std::string fmt(const ptowb_Rt::Int& v) { return v.known ? std::to_string(static_cast<long long>(v.value)) : "?"; }
std::string fmt(const ptowb_Rt::Float& v)
{
    if (!v.known) return "?";
    char buf[40];
    std::snprintf(buf, sizeof buf, "f%.17g", v.value);
    return buf;
}
std::string fmt(const ptowb_Rt::Bool& v) { return v.known ? (v.value ? "True" : "False") : "?"; }
std::string fmt(const ptowb_Rt::Str& v) { return v.known ? "'" + v.value + "'" : "?"; }
std::string fmt(const ptowb_Rt::DT& v) { return v.known ? "d" + std::to_string(static_cast<int>(v.value)) : "?"; }
template <class T> std::string fmt(const ptowb_Rt::List<T>& l)
{
    if (!l.known) return "?rank";
    std::string out = "[";
    for (std::size_t k = 0; k < l.items.size(); ++k) out += (k ? ", " : "") + fmt(l.items[k]);
    return out + "]";
}
ptowb_Rt::Tensor tensor(const std::vector<std::int64_t>& dims, ptowb_Rt::DType dtype)
{
    ptowb_Rt::Tensor t;
    t.shape = ptowb_Rt::fromGeDims(dims);
    t.dtype = ptowb_Rt::dtypeOf(dtype);
    return t;
}
int main()
{
    using ptowb_Rt::DType;
)CPP";

// The evaluator's value in the program's notation.
std::string notation(const Value& v)
{
    char buf[40];
    switch (v.type) {
    case Type::Float:
        std::snprintf(buf, sizeof buf, "f%.17g", v.f);
        return buf;
    case Type::Str:
        return "'" + v.s + "'";
    case Type::DType:
        return "d" + std::to_string(int(v.dtype));
    case Type::FloatList: {
        std::string out = "[";
        for (std::size_t k = 0; k < v.floats.size(); ++k)
            out += (k ? ", " : "") + notation(Value::ofFloat(v.floats[k]));
        return out + "]";
    }
    default:
        return v.toString();
    }
}

struct Row
{
    std::string rule, expected, cpp;
};

} // namespace

class TestCannRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agreeWithTheEvaluatorAndPropagateUnknownDims()
    {
        UnknownFixture fixture;
        codegen::CppNames names;
        for (const auto& in : fixture.scope.inputs)
            names.inputs.push_back("I_" + in);
        for (const auto& p : fixture.scope.params)
            names.params.push_back("P_" + p.name);
        std::vector<Row> rows;
        for (const auto& [rule, unused] : testing::ruleTable()) {
            auto compiled = Rule::compile(rule, fixture.scope);
            if (!std::holds_alternative<Rule>(compiled))
                continue; // emitters only see checked rules
            const Rule& r = std::get<Rule>(compiled);
            auto value = r.evaluate({fixture.inputs, fixture.params});
            rows.push_back(
                {rule,
                 std::holds_alternative<Value>(value) ? notation(std::get<Value>(value)) : "error",
                 codegen::emitCppRule(r.root(), names)});
        }
        const std::size_t known = rows.size();
        QVERIFY(known > 150);
        for (const auto& [rule, expected] : kUnknownRows) {
            auto compiled = Rule::compile(rule, fixture.scope);
            QVERIFY2(std::holds_alternative<Rule>(compiled), rule);
            rows.push_back(
                {rule, expected, codegen::emitCppRule(std::get<Rule>(compiled).root(), names)});
        }

        std::string program =
            codegen::cppRuleSupportIncludes() + codegen::cppRuleSupport() + kProgramHead;
        const char* const tensors[] = {
            "{4, 64}, DType::Float16",      "{64}, DType::Float32",
            "{2, 3, 4, 5}, DType::Float32", "{}, DType::Int32",
            "{8, 1, 16}, DType::BFloat16",  "{-1, 64}, DType::Float16",
            "{-2}, DType::Float32",         "{4, -1, 8}, DType::Float32"};
        for (std::size_t k = 0; k < names.inputs.size(); ++k)
            program += "    const ptowb_Rt::Tensor " + names.inputs[k] + " = tensor(" + tensors[k] +
                       ");\n    (void)" + names.inputs[k] + ";\n";
        for (std::size_t k = 0; k < names.params.size(); ++k) {
            const Value& v = fixture.params[k];
            std::string init;
            switch (v.type) {
            case Type::Int:
                init = v.i == INT64_MIN
                           ? "ptowb_Rt::intOf(std::numeric_limits<std::int64_t>::min())"
                           : "ptowb_Rt::intOf(" + std::to_string(v.i) + "LL)";
                break;
            case Type::Float:
                init = "ptowb_Rt::floatOf(" + notation(v).substr(1) + ")";
                break;
            case Type::Bool:
                init = std::string("ptowb_Rt::boolOf(") + (v.asBool() ? "true" : "false") + ")";
                break;
            case Type::Str:
                init = "ptowb_Rt::strOf(\"" + v.s + "\")";
                break;
            case Type::Shape: {
                std::string items;
                for (auto i : v.ints)
                    items += (items.empty() ? "" : ", ") + std::to_string(i) + "LL";
                init = "ptowb_Rt::shapeValues(std::vector<std::int64_t>{" + items + "})";
                break;
            }
            default: {
                std::string items;
                for (auto f : v.floats)
                    items += (items.empty() ? "" : ", ") + notation(Value::ofFloat(f)).substr(1);
                init = "ptowb_Rt::floatValues(std::vector<double>{" + items + "})";
            }
            }
            program += "    const auto " + names.params[k] + " = " + init + ";\n    (void)" +
                       names.params[k] + ";\n";
        }
        for (const Row& row : rows)
            program +=
                "    try { std::cout << fmt(" + row.cpp +
                ") << '\\n'; } catch (const ptowb_Rt::RuleError&) { std::cout << \"error\\n\"; }\n";
        program += "    return 0;\n}\n";

        QTemporaryDir dir;
        const QString source = dir.filePath(QStringLiteral("rules.cpp")),
                      binary = dir.filePath(QStringLiteral("rules"));
        QVERIFY(cann_test::writeText(source, program));
        const cann_test::Run built = cann_test::compile(
            cann_test::cannFlags(QStringLiteral("c++11")) +
            QStringList{QStringLiteral("-O0"), source, QStringLiteral("-o"), binary});
        QVERIFY2(built.ok, qPrintable(built.output.left(8000)));
        const cann_test::Run ran = cann_test::run(binary, {});
        QVERIFY2(ran.ok, qPrintable(ran.output.left(2000)));
        const QStringList lines = ran.output.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(rows.size()));
        for (std::size_t k = 0; k < rows.size(); ++k)
            QVERIFY2(lines[int(k)].toStdString() == rows[k].expected,
                     qPrintable(QStringLiteral("%1\n  C++11: %2\n  gives %3, expected %4")
                                    .arg(QString::fromStdString(rows[k].rule),
                                         QString::fromStdString(rows[k].cpp), lines[int(k)],
                                         QString::fromStdString(rows[k].expected))));
        qInfo("%d rules agree with the evaluator on known values, %d propagate unknown dims as "
              "expected",
              int(known), int(rows.size() - known));
    }
};

QTEST_GUILESS_MAIN(TestCannRules)
#include "tst_cann_rules.moc"
