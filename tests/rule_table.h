#pragma once
// The rule table shared by the evaluator tests and the emitter tests: every expression with
// what it evaluates to ("value") or the error it gives ("error:<code>@<begin>-<end>").
#include "rules/rule.h"

#include <QString>
#include <utility>
#include <vector>

namespace ptowb::testing {

using namespace ptowb::rules;

// Inputs and parameters every expression in the table may use.
struct Fixture
{
    RuleScope scope;
    std::vector<TensorInfo> inputs;
    std::vector<Value> params;

    Fixture()
    {
        scope.inputs = {"x", "v", "w", "s", "h"};
        inputs = {{{4, 64}, DType::Float16},
                  {{64}, DType::Float32},
                  {{2, 3, 4, 5}, DType::Float32},
                  {{}, DType::Int32},
                  {{8, 1, 16}, DType::BFloat16}};
        scope.params = {{"channels", Type::Int}, {"scale", Type::Float},
                        {"flag", Type::Bool},    {"mode", Type::Str},
                        {"dims", Type::Shape},   {"weights", Type::FloatList},
                        {"big", Type::Int},      {"zero", Type::Int},
                        {"neg", Type::Int},      {"empty", Type::Shape}};
        params = {Value::ofInt(32),        Value::ofFloat(0.5),     Value::ofBool(true),
                  Value::ofStr("fast"),    Value::ofShape({0, -1}), Value::ofFloatList({0.5, 1.5}),
                  Value::ofInt(INT64_MAX), Value::ofInt(0),         Value::ofInt(-7),
                  Value::ofShape({})};
    }

    // "value" on success, "error:<code>@<begin>-<end>" on failure.
    QString run(const QString& text) const
    {
        const std::string source = text.toStdString();
        auto compiled = Rule::compile(source, scope);
        if (auto* errors = std::get_if<std::vector<RuleError>>(&compiled)) {
            const RuleError& e = errors->front();
            return QStringLiteral("error:%1@%2-%3")
                .arg(QString::fromStdString(e.code))
                .arg(e.span.begin)
                .arg(e.span.end);
        }
        const Rule& rule = std::get<Rule>(compiled);
        auto result = rule.evaluate({inputs, params});
        if (auto* e = std::get_if<RuleError>(&result))
            return QStringLiteral("error:%1@%2-%3")
                .arg(QString::fromStdString(e->code))
                .arg(e->span.begin)
                .arg(e->span.end);
        return QString::fromStdString(std::get<Value>(result).toString());
    }
};

inline std::vector<std::pair<const char*, const char*>> ruleTable()
{
    std::vector<std::pair<const char*, const char*>> rows;
    auto row = [&](const char* rule, const char* expected) { rows.emplace_back(rule, expected); };
    // Literals
    row("42", "42");
    row("0", "0");
    row("1_000", "1000");
    row("2.5", "2.5");
    row("1e-3", "0.001");
    row(".5", "0.5");
    row("True", "True");
    row("False", "False");
    row("'abc'", "'abc'");
    row("\"fast\"", "'fast'");
    row("[]", "[]");
    row("[1, 2, 3]", "[1, 2, 3]");
    row("[1, 2.5]", "[1.0, 2.5]");
    row("[1, 2,]", "[1, 2]");
    row("float16", "float16");
    row("bfloat16", "bfloat16");
    // Integer arithmetic, Python semantics
    row("1 + 2 * 3", "7");
    row("(1 + 2) * 3", "9");
    row("7 // 2", "3");
    row("-7 // 2", "-4");
    row("7 // -2", "-4");
    row("7 % 3", "1");
    row("-7 % 3", "2");
    row("7 % -3", "-2");
    row("10 - 3 - 2", "5");
    row("-channels", "-32");
    row("+channels", "32");
    row("--3", "3");
    row("neg // 2", "-4");
    row("neg % 4", "1");
    // Float arithmetic
    row("7 / 2", "3.5");
    row("scale * 4", "2.0");
    row("scale + 1", "1.5");
    row("channels * scale", "16.0");
    row("1 - scale", "0.5");
    row("-scale", "-0.5");
    // Comparisons, chained
    row("1 < 2", "True");
    row("2 <= 2", "True");
    row("3 > 4", "False");
    row("1 <= channels <= x.shape[1]", "True");
    row("1 <= channels <= 16", "False");
    row("0 < 1 < 2 < 3", "True");
    row("0 < 2 < 1", "False");
    row("channels == 32", "True");
    row("channels != 32", "False");
    row("scale == 0.5", "True");
    row("32 == 32.0", "True");
    row("x.dtype == float16", "True");
    row("x.dtype != v.dtype", "True");
    row("x.shape == [4, 64]", "True");
    row("mode == 'fast'", "True");
    row("dims == [0, -1]", "True");
    row("64 in x.shape", "True");
    row("5 in x.shape", "False");
    row("5 not in x.shape", "True");
    row("1.5 in weights", "True");
    // Boolean logic
    row("flag and channels > 0", "True");
    row("not flag", "False");
    row("not flag or True", "True");
    row("flag and not flag", "False");
    row("not not flag", "True");
    // Conditional
    row("1 if flag else 2", "1");
    row("1 if not flag else 2", "2");
    row("x.shape[0] if flag else x.shape[1]", "4");
    row("1 if flag else 2.5", "1.0");
    row("[1] if flag else [2.5]", "[1.0]");
    row("1 if False else 2 if False else 3", "3");
    // Tensor attributes
    row("x.shape", "[4, 64]");
    row("x.rank", "2");
    row("x.numel", "256");
    row("x.dtype", "float16");
    row("w.rank", "4");
    row("s.shape", "[]");
    row("s.rank", "0");
    row("s.numel", "1");
    row("h.dtype", "bfloat16");
    // Indexing and slicing
    row("x.shape[0]", "4");
    row("x.shape[-1]", "64");
    row("w.shape[-4]", "2");
    row("w.shape[1:]", "[3, 4, 5]");
    row("w.shape[:-1]", "[2, 3, 4]");
    row("w.shape[1:3]", "[3, 4]");
    row("w.shape[::2]", "[2, 4]");
    row("w.shape[::-1]", "[5, 4, 3, 2]");
    row("w.shape[-2:]", "[4, 5]");
    row("w.shape[10:]", "[]");
    row("w.shape[:100]", "[2, 3, 4, 5]");
    row("w.shape[:]", "[2, 3, 4, 5]");
    row("dims[1]", "-1");
    row("weights[-1]", "1.5");
    row("weights[:1]", "[0.5]");
    row("[10, 20, 30][1]", "20");
    // List operators
    row("x.shape + [1]", "[4, 64, 1]");
    row("[x.shape[0]] + w.shape[2:]", "[4, 4, 5]");
    row("[1] * 3", "[1, 1, 1]");
    row("2 * [7]", "[7, 7]");
    row("[1] * 0", "[]");
    row("weights + [2]", "[0.5, 1.5, 2.0]");
    row("[x.shape[0], channels]", "[4, 32]");
    // Builtins
    row("min(3, 1, 2)", "1");
    row("max(3, 1, 2)", "3");
    row("min(1, 2.5)", "1.0");
    row("max(x.shape)", "64");
    row("min(w.shape)", "2");
    row("max(weights)", "1.5");
    row("abs(-5)", "5");
    row("abs(neg)", "7");
    row("abs(-2.5)", "2.5");
    row("len(x.shape)", "2");
    row("len([])", "0");
    row("len(weights)", "2");
    row("prod(w.shape)", "120");
    row("prod([])", "1");
    row("prod(weights)", "0.75");
    row("sum(w.shape)", "14");
    row("sum([])", "0");
    row("sum(weights)", "2.0");
    row("ceil_div(7, 2)", "4");
    row("ceil_div(8, 2)", "4");
    row("ceil_div(-7, 2)", "-3");
    row("ceil_div(x.shape[1], 16)", "4");
    row("broadcast([4, 1], [3])", "[4, 3]");
    row("broadcast(x.shape, v.shape)", "[4, 64]");
    row("broadcast([2, 1, 4], [3, 1], [1])", "[2, 3, 4]");
    row("broadcast([], [5])", "[5]");
    row("broadcast([0], [1])", "[0]");
    row("broadcast(x.shape)", "[4, 64]");
    row("promote(float16, float32)", "float32");
    row("promote(float16, bfloat16)", "float32");
    row("promote(int8, uint8)", "int16");
    row("promote(int32, float16)", "float16");
    row("promote(bool, int64)", "int64");
    row("promote(x.dtype, v.dtype, h.dtype)", "float32");
    row("promote(float64, float16)", "float64");
    row("reduce(w.shape, 1, False)", "[2, 4, 5]");
    row("reduce(w.shape, -1, True)", "[2, 3, 4, 1]");
    row("reduce(w.shape, [0, 2], False)", "[3, 5]");
    row("reduce(w.shape, [0, -1], True)", "[1, 3, 4, 1]");
    row("reduce(w.shape, [], False)", "[]");
    row("reduce(w.shape, dims)", "[3, 4]");
    row("transpose(w.shape, 0, 1)", "[3, 2, 4, 5]");
    row("transpose(w.shape, -1, -2)", "[2, 3, 5, 4]");
    row("transpose(x.shape, 1, 1)", "[4, 64]");
    row("matmul_shape([4, 8], [8, 16])", "[4, 16]");
    row("matmul_shape([4, 8], [16, 8], False, True)", "[4, 16]");
    row("matmul_shape([8, 4], [8, 16], True, False)", "[4, 16]");
    row("matmul_shape([2, 4, 8], [8, 16])", "[2, 4, 16]");
    row("matmul_shape([2, 1, 4, 8], [3, 8, 16])", "[2, 3, 4, 16]");
    row("matmul_shape([8], [8, 16])", "[16]");
    row("matmul_shape([4, 8], [8])", "[4]");
    row("matmul_shape([8], [8])", "[]");
    row("matmul_shape(x.shape, [64, 10], False, flag)", "error:rule.shape-error@0-44");

    // Errors: names, attributes, functions
    row("chanels", "error:rule.unknown-name@0-7");
    row("x.shap", "error:rule.unknown-attribute@0-6");
    row("channels.shape", "error:rule.type-error@0-14");
    row("foo(1)", "error:rule.unknown-function@0-3");
    row("min", "error:rule.syntax@0-3");
    row("min()", "error:rule.arity@0-5");
    row("abs(1, 2)", "error:rule.arity@0-9");
    row("ceil_div(1)", "error:rule.arity@0-11");
    row("transpose(x.shape, 0)", "error:rule.arity@0-21");
    row("matmul_shape([1])", "error:rule.arity@0-17");
    row("len(3)", "error:rule.type-error@4-5");
    row("prod(x)", "error:rule.type-error@5-6");
    row("broadcast([1], 2)", "error:rule.type-error@15-16");
    row("promote(float16, 1)", "error:rule.type-error@17-18");
    row("reduce(x.shape, 1.5)", "error:rule.type-error@16-19");
    row("reduce(x.shape, 1, 1)", "error:rule.type-error@19-20");
    row("ceil_div(1.5, 2)", "error:rule.type-error@9-12");
    row("min(x.shape, 2)", "error:rule.type-error@4-11");
    row("x(1)", "error:rule.unknown-function@0-1");
    // Errors: types
    row("1 + 'a'", "error:rule.type-error@0-7");
    row("x + 1", "error:rule.type-error@0-5");
    row("scale // 2", "error:rule.type-error@0-10");
    row("7 % 2.0", "error:rule.type-error@0-7");
    row("x.shape - [1]", "error:rule.type-error@0-13");
    row("flag + 1", "error:rule.type-error@0-8");
    row("-flag", "error:rule.type-error@0-5");
    row("not 1", "error:rule.type-error@4-5");
    row("flag and 1", "error:rule.type-error@9-10");
    row("1 if 2 else 3", "error:rule.type-error@5-6");
    row("1 if flag else 'a'", "error:rule.type-error@0-18");
    row("x if flag else v", "error:rule.type-error@0-16");
    row("x.shape < [1]", "error:rule.type-error@0-13");
    row("x == v", "error:rule.type-error@0-6");
    row("'a' < 'b'", "error:rule.type-error@0-9");
    row("x[0]", "error:rule.type-error@0-4");
    row("x.shape[1.5]", "error:rule.type-error@8-11");
    row("x.shape['a':]", "error:rule.type-error@8-11");
    row("channels[0]", "error:rule.type-error@0-8");
    row("[1, 'a']", "error:rule.type-error@4-7");
    row("[float16]", "error:rule.type-error@1-8");
    row("1 in 2", "error:rule.type-error@0-6");
    row("(x.shape).rank", "error:rule.type-error@0-14");
    // Errors: values at evaluation
    row("1 // 0", "error:rule.division-by-zero@0-6");
    row("1 % zero", "error:rule.division-by-zero@0-8");
    row("1 / 0", "error:rule.division-by-zero@0-5");
    row("scale / 0.0", "error:rule.division-by-zero@0-11");
    row("ceil_div(5, zero)", "error:rule.division-by-zero@12-16");
    row("x.shape[2]", "error:rule.index-error@0-10");
    row("x.shape[-3]", "error:rule.index-error@0-11");
    row("s.shape[0]", "error:rule.index-error@0-10");
    row("empty[0]", "error:rule.index-error@0-8");
    row("weights[5]", "error:rule.index-error@0-10");
    row("x.shape[::0]", "error:rule.value-error@8-11");
    row("min(empty)", "error:rule.value-error@4-9");
    row("max([])", "error:rule.value-error@4-6");
    row("broadcast([4, 3], [5])", "error:rule.shape-error@18-21");
    row("broadcast(x.shape, [3, 64], [2])", "error:rule.shape-error@19-26");
    row("reduce(x.shape, 2, False)", "error:rule.shape-error@16-17");
    row("reduce(x.shape, [0, 0], False)", "error:rule.shape-error@16-22");
    row("reduce(x.shape, [-3], True)", "error:rule.shape-error@16-20");
    row("transpose(s.shape, 0, 0)", "error:rule.shape-error@19-20");
    row("transpose(x.shape, 0, 2)", "error:rule.shape-error@22-23");
    row("matmul_shape([4, 8], [7, 16])", "error:rule.shape-error@0-29");
    row("matmul_shape([], [8])", "error:rule.shape-error@13-15");
    row("matmul_shape([2, 4, 8], [3, 8, 2])", "error:rule.shape-error@24-33");
    row("[1] * 10000000", "error:rule.value-error@0-14");
    // Repetition of an empty list takes no time, however large the count.
    row("len([] * 9223372036854775807) == 0", "True");
    row("[] * big", "[]");
    row("big * empty", "[]");
    row("len([1] * 600000 + [1] * 600000)", "error:rule.value-error@4-31");
    // Errors: overflow
    row("big + 1", "error:rule.overflow@0-7");
    row("big * 2", "error:rule.overflow@0-7");
    row("-big - 2", "error:rule.overflow@0-8");
    row("9223372036854775807", "9223372036854775807");
    row("9223372036854775808", "error:rule.overflow@0-19");
    row("prod([big, 2])", "error:rule.overflow@0-14");
    row("sum([big, 1])", "error:rule.overflow@0-13");
    row("abs(-big - 1)", "error:rule.overflow@4-12");
    row("(-big - 1) // -1", "error:rule.overflow@0-16");
    row("1e999", "error:rule.overflow@0-5");
    // Errors: syntax
    row("", "error:rule.empty@0-0");
    row("   ", "error:rule.empty@0-3");
    row("1 +", "error:rule.syntax@3-3");
    row("(1", "error:rule.syntax@2-2");
    row("[1, 2", "error:rule.syntax@5-5");
    row("1 2", "error:rule.syntax@2-3");
    row("x.shape[0", "error:rule.syntax@9-9");
    row("x.", "error:rule.syntax@2-2");
    row("1 if flag", "error:rule.syntax@9-9");
    row("a = 1", "error:rule.syntax@2-3");
    row("1 $ 2", "error:rule.syntax@2-3");
    row("2 ** 3", "error:rule.unsupported@2-4");
    row("(1, 2)", "error:rule.unsupported@2-3");
    row("None", "error:rule.unsupported@0-4");
    row("lambda: 1", "error:rule.unsupported@0-6");
    row("'abc", "error:rule.syntax@0-4");
    row("012", "error:rule.syntax@0-3");
    row("3abc", "error:rule.syntax@0-2");
    row("not", "error:rule.syntax@3-3");
    row("1 not 2", "error:rule.syntax@6-7");
    row("x.shape.rank", "error:rule.type-error@0-12");
    row("x.shape(1)", "error:rule.syntax@7-8");
    return rows;
}

} // namespace ptowb::testing
