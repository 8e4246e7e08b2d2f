// Table-driven tests of the rule language: parse, check and evaluate, with errors as values.
#include "rule_table.h"
#include "rules/rule.h"
#include "rules/rule_parser.h"
#include "rules/shape_functions.h"

#include <QtTest>

using namespace ptowb;
using namespace ptowb::rules;

class TestRules : public QObject
{
    Q_OBJECT

private:
    testing::Fixture m_fixture;

    static void row(const char* rule, const char* expected)
    {
        QTest::newRow(rule) << QString::fromUtf8(rule) << QString::fromUtf8(expected);
    }

private slots:
    void evaluate_data();
    void evaluate();
    void errorMessages();
    void deepNesting_data();
    void deepNesting();
    void longRule();
    void staticTypes_data();
    void staticTypes();
    void resolvedTreeForEmitters();
    void shapeFunctionsDirect();
    void indexPastAKnownRank();
};

void TestRules::evaluate_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("expected");

    for (const auto& [rule, expected] : testing::ruleTable())
        row(rule, expected);
}

void TestRules::evaluate()
{
    QFETCH(QString, rule);
    QFETCH(QString, expected);
    QCOMPARE(m_fixture.run(rule), expected);
}

void TestRules::errorMessages()
{
    auto message = [&](const char* text) {
        auto compiled = Rule::compile(text, m_fixture.scope);
        if (auto* errors = std::get_if<std::vector<RuleError>>(&compiled))
            return QString::fromStdString(errors->front().message);
        auto result = std::get<Rule>(compiled).evaluate({m_fixture.inputs, m_fixture.params});
        if (auto* e = std::get_if<RuleError>(&result)) return QString::fromStdString(e->message);
        return QString();
    };
    QCOMPARE(message("chanels"),
             QStringLiteral("unknown name 'chanels'; did you mean 'channels'?"));
    QCOMPARE(message("x.shap"), QStringLiteral("tensors have no attribute 'shap'; did you mean "
                                               "'shape'? (available: shape, rank, dtype, numel)"));
    QCOMPARE(message("brodcast([1], [2])"),
             QStringLiteral("unknown function 'brodcast'; did you mean 'broadcast'?"));
    QCOMPARE(message("x.shape[2]"),
             QStringLiteral("index 2 is out of range for a list of length 2"));
    QVERIFY(message("broadcast([4, 3], [5])").contains(QStringLiteral("cannot broadcast [5]")));
    QVERIFY(message("matmul_shape([4, 8], [7, 16])").contains(QStringLiteral("k = 8")));
    QVERIFY(message("reduce(x.shape, 2, False)").contains(QStringLiteral("allowed -2..1")));
    QVERIFY(message("big + 1").contains(QStringLiteral("integer overflow")));
}

void TestRules::deepNesting_data()
{
    QTest::addColumn<QString>("rule");
    const int depth = 1000;
    QTest::newRow("parentheses") << QString(depth, '(') + "1" + QString(depth, ')');
    QTest::newRow("lists") << QString(depth, '[') + "1" + QString(depth, ']');
    QTest::newRow("unary minus") << QString(depth, '-') + "1";
    QTest::newRow("not") << QString("not ").repeated(depth) + "True";
    QTest::newRow("calls") << QString("abs(").repeated(depth) + "1" + QString(depth, ')');
    QTest::newRow("conditionals") << QString("1 if flag else ").repeated(depth) + "2";
    QTest::newRow("index") << QString("x.shape[").repeated(depth) + "0" + QString(depth, ']');
}

void TestRules::deepNesting()
{
    QFETCH(QString, rule);
    const QString result = m_fixture.run(rule);
    QVERIFY2(result.startsWith(QStringLiteral("error:rule.too-deep@")), qPrintable(result));
    // Just inside the limit still works.
    const QString shallow = QString(kMaxRuleDepth / 4, '(') + "7" + QString(kMaxRuleDepth / 4, ')');
    QCOMPARE(m_fixture.run(shallow), QStringLiteral("7"));
}

void TestRules::longRule()
{
    QString sum = QStringLiteral("1");
    for (int k = 0; k < 200; ++k)
        sum += QStringLiteral(" + 1");
    QCOMPARE(m_fixture.run(sum), QStringLiteral("201")); // long but flat: fine
    // Each operator of a chain is a level of the tree that the checker, the evaluator and the
    // emitters recurse over (and CPython compiles): a 5,000-term chain is an error, not a crash.
    for (int k = 200; k < 5000; ++k)
        sum += QStringLiteral(" + 1");
    QVERIFY(m_fixture.run(sum).startsWith(QStringLiteral("error:rule.too-deep@")));
    const QString huge = QString(kMaxRuleLength + 1, ' ');
    QVERIFY(m_fixture.run(huge).startsWith(QStringLiteral("error:rule.too-long")));
}

void TestRules::staticTypes_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("type");
    QTest::newRow("shape") << "[x.shape[0], channels]"
                           << "shape";
    QTest::newRow("dtype") << "promote(x.dtype, v.dtype)"
                           << "dtype";
    QTest::newRow("bool") << "1 <= channels <= 3"
                          << "bool";
    QTest::newRow("float") << "scale * 2"
                           << "float";
    QTest::newRow("int") << "x.numel // 2"
                         << "int";
    QTest::newRow("float list") << "weights"
                                << "float list";
    QTest::newRow("str") << "mode"
                         << "str";
}

void TestRules::staticTypes()
{
    QFETCH(QString, rule);
    QFETCH(QString, type);
    auto compiled = Rule::compile(rule.toStdString(), m_fixture.scope);
    QVERIFY(std::holds_alternative<Rule>(compiled));
    QCOMPARE(QString::fromLatin1(typeName(std::get<Rule>(compiled).type())), type);
}

void TestRules::resolvedTreeForEmitters()
{
    // Emitters walk the checked tree: names resolved to slots, every node typed.
    auto compiled = Rule::compile("[x.shape[0], channels]", m_fixture.scope);
    const Node& root = std::get<Rule>(compiled).root();
    QCOMPARE(root.kind, NodeKind::List);
    QCOMPARE(root.kids.size(), std::size_t(2));
    const Node& index = *root.kids[0];
    QCOMPARE(index.kind, NodeKind::Index);
    QCOMPARE(index.type, Type::Int);
    QCOMPARE(index.kids[0]->kind, NodeKind::Attr);
    QCOMPARE(index.kids[0]->attr, Attr::Shape);
    QCOMPARE(index.kids[0]->kids[0]->kind, NodeKind::Input);
    QCOMPARE(index.kids[0]->kids[0]->slot, 0);
    QCOMPARE(root.kids[1]->kind, NodeKind::Param);
    QCOMPARE(root.kids[1]->slot, 0);
    QCOMPARE(root.kids[1]->type, Type::Int);

    auto call = Rule::compile("promote(x.dtype, float32)", m_fixture.scope);
    const Node& c = std::get<Rule>(call).root();
    QCOMPARE(c.kind, NodeKind::Call);
    QCOMPARE(c.builtin, Builtin::Promote);
    QCOMPARE(c.kids[1]->kind, NodeKind::DTypeLit);
    QCOMPARE(c.kids[1]->dtype, DType::Float32);
}

void TestRules::shapeFunctionsDirect()
{
    using shapefn::Shape;
    auto ok = [](const shapefn::ShapeResult& r) {
        return std::holds_alternative<Shape>(r) ? std::get<Shape>(r) : Shape{-99};
    };
    const Shape shapes[] = {{3, 1, 5}, {4, 1}};
    QCOMPARE(ok(shapefn::broadcast(shapes)), (Shape{3, 4, 5}));
    QCOMPARE(ok(shapefn::matmul({5, 2, 3}, {3, 4}, false, false)), (Shape{5, 2, 4}));
    const std::int64_t dims[] = {-1};
    QCOMPARE(ok(shapefn::reduce({2, 3}, dims, true)), (Shape{2, 1}));
    std::size_t d = 0;
    QVERIFY(shapefn::normalizeDim(-1, 3, d) && d == 2);
    QVERIFY(!shapefn::normalizeDim(3, 3, d));
}

QTEST_GUILESS_MAIN(TestRules)
#include "tst_rules.moc"

// With op.json's rank for an input, a constant index past it is an error at the rule, once.
void TestRules::indexPastAKnownRank()
{
    RuleScope scope = m_fixture.scope;
    scope.inputRanks = {2, std::nullopt};
    for (const char* fine : {"x.shape[1]", "x.shape[-2]", "v.shape[7]", "x.shape[channels]"})
        QVERIFY2(std::holds_alternative<Rule>(Rule::compile(fine, scope)), fine);
    for (const auto& [rule, begin] : std::vector<std::pair<const char*, int>>{
             {"[x.shape[0], x.shape[2]]", 21}, {"x.shape[-3]", 8}}) {
        auto compiled = Rule::compile(rule, scope);
        auto* errors = std::get_if<std::vector<RuleError>>(&compiled);
        QVERIFY2(errors && errors->size() == 1, rule);
        QCOMPARE(QString::fromStdString(errors->front().code),
                 QStringLiteral("rule.index-out-of-range"));
        QCOMPARE(int(errors->front().span.begin), begin);
        QVERIFY2(QString::fromStdString(errors->front().message)
                     .contains(QStringLiteral("x has rank 2")),
                 errors->front().message.c_str());
    }
}
