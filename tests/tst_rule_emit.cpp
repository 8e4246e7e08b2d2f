// The Python rule emitter: every rule of the shared table, emitted as Python and run by Debian's
// python3, must give what the C++ evaluator gives (or fail where it fails). The C++ emitter's
// table is tst_cann_rules; both emitters' string literals are checked here.
#include "codegen/cpp_rule_emitter.h"
#include "codegen/python_rule_emitter.h"
#include "rule_table.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::rules;

namespace {

const char* const kPython = "/usr/bin/python3";

// Stand-ins for the accessors a glue context defines (fake tensors here; torch or ONNX values
// in generated glue), with torch's promotion order.
const char* const kTestContext = R"PY(
import sys

class DT:
    def __init__(self, name): self.name = name
    def __eq__(self, other): return isinstance(other, DT) and other.name == self.name
    def __ne__(self, other): return not self == other
    def __hash__(self): return hash(self.name)

_RANK = {'bool': 0, 'uint8': 1, 'int8': 1, 'int16': 2, 'int32': 3, 'int64': 4, 'float16': 5, 'bfloat16': 5, 'float32': 6, 'float64': 7}

def _pt_promote(*dts):
    out = dts[0]
    for d in dts[1:]:
        pair = {out.name, d.name}
        if pair == {'uint8', 'int8'}: out = DT('int16')
        elif pair == {'float16', 'bfloat16'}: out = DT('float32')
        elif _RANK[d.name] > _RANK[out.name]: out = d
    return out

class Tensor:
    def __init__(self, shape, dtype): self.shape, self.dtype = tuple(shape), dtype

_pt_dt = DT
_pt_shape = lambda t: list(t.shape)
_pt_rank = lambda t: len(t.shape)
_pt_numel = lambda t: _pt_prod(t.shape)
_pt_dtype = lambda t: DT(t.dtype)

def fmt(v):
    if isinstance(v, bool): return 'True' if v else 'False'
    if isinstance(v, int): return str(v)
    if isinstance(v, float): return repr(v)
    if isinstance(v, str): return "'" + v + "'"
    if isinstance(v, DT): return v.name
    if isinstance(v, list): return '[' + ', '.join(fmt(x) for x in v) + ']'
    return '<%r>' % (v,)

x = Tensor([4, 64], 'float16'); v = Tensor([64], 'float32'); w = Tensor([2, 3, 4, 5], 'float32')
s = Tensor([], 'int32'); h = Tensor([8, 1, 16], 'bfloat16')
channels, scale, flag, mode, dims, weights, big, zero, neg, empty = 32, 0.5, True, 'fast', [0, -1], [0.5, 1.5], 9223372036854775807, 0, -7, []
)PY";

struct Emitted
{
    QString rule;
    QString expected; // the C++ evaluator's value, or "error"
    std::string python;
};

// Compiles a C++ program with the build's compiler and flags (plus `extra`), runs it and
// returns what it printed; on failure `error` says why.
QByteArray compileAndRun(const std::string& source, const QStringList& extra, QString& error)
{
    QTemporaryDir dir;
    QFile file(dir.filePath("program.cpp"));
    if (!file.open(QIODevice::WriteOnly)) return error = "cannot write the program", QByteArray();
    file.write(QByteArray::fromStdString(source));
    file.close();
    // The build's own flags: a sanitizer build's runtime library needs its runtime linked in.
    const QStringList flags = QStringLiteral(PTOWB_CXX_FLAGS).split(' ', Qt::SkipEmptyParts);
    QProcess compiler;
    compiler.start(QStringLiteral(PTOWB_CXX), flags + QStringList{"-std=c++20", file.fileName()} +
                                                  extra +
                                                  QStringList{"-o", dir.filePath("program")});
    if (!compiler.waitForFinished(300000) || compiler.exitCode() != 0)
        return error = QString::fromUtf8(compiler.readAllStandardError().left(4000)), QByteArray();
    QProcess run;
    run.start(dir.filePath("program"));
    if (!run.waitForFinished(30000) || run.exitCode() != 0)
        return error = "the program failed", QByteArray();
    return run.readAllStandardOutput();
}

// Every rule of the table that compiles, with the evaluator's answer and its emitted form.
// Python ints do not overflow, so the overflow rows are left to tst_cann_rules (C++).
template <class Emit> std::vector<Emitted> emitTable(const testing::Fixture& fixture, Emit emitRule)
{
    std::vector<Emitted> cases;
    for (const auto& [rule, expected] : testing::ruleTable()) {
        auto compiled = Rule::compile(rule, fixture.scope);
        if (!std::holds_alternative<Rule>(compiled)) continue; // emitters only see checked rules
        const Rule& r = std::get<Rule>(compiled);
        auto value = r.evaluate({fixture.inputs, fixture.params});
        if (auto* e = std::get_if<RuleError>(&value); e && e->code == "rule.overflow") continue;
        const QString want = std::holds_alternative<Value>(value)
                                 ? QString::fromStdString(std::get<Value>(value).toString())
                                 : QStringLiteral("error");
        Emitted item;
        item.rule = QString::fromUtf8(rule);
        item.expected = want;
        item.python = emitRule(r.root());
        cases.push_back(std::move(item));
    }
    return cases;
}

} // namespace

class TestRuleEmit : public QObject
{
    Q_OBJECT

private slots:
    void pythonAgreesWithTheEvaluator()
    {
        testing::Fixture fixture;
        codegen::PythonNames names;
        names.inputs = fixture.scope.inputs;
        for (const auto& p : fixture.scope.params)
            names.params.push_back(p.name);

        const std::vector<Emitted> cases =
            emitTable(fixture, [&](const Node& root) { return codegen::emitPython(root, names); });
        QVERIFY(cases.size() > 150);

        std::string script = codegen::pythonRulePrelude() + kTestContext;
        for (const Emitted& c : cases)
            script += "try:\n    print(fmt(" + c.python +
                      "))\nexcept Exception as _e:\n    print('error')\n";
        QTemporaryDir dir;
        QFile file(dir.filePath("rules.py"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(script));
        file.close();
        QProcess p;
        p.start(QString::fromLatin1(kPython), {file.fileName()});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QStringList lines =
            QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(cases.size()));
        int checked = 0;
        for (std::size_t k = 0; k < cases.size(); ++k) {
            QVERIFY2(lines[int(k)] == cases[k].expected,
                     qPrintable(QStringLiteral("%1\n  python: %2\n  gives %3, the evaluator %4")
                                    .arg(cases[k].rule, QString::fromStdString(cases[k].python),
                                         lines[int(k)], cases[k].expected)));
            ++checked;
        }
        qInfo("%d rules agree", checked);
    }

    void stringLiteralsCannotBreakOut()
    {
        const std::vector<std::string> hostile{"plain",
                                               "it's \"quoted\"",
                                               "back\\slash\\",
                                               "new\nline\r\n",
                                               "*/ /* \"\"\" ''' #",
                                               "tab\tand\x01control",
                                               "\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80",
                                               "'); import os; os.system('false'); ('"};
        std::string script = "import sys\nvalues = [\n";
        for (const auto& text : hostile)
            script += "    " + codegen::pythonStringLiteral(text) + ",\n";
        script += "]\nsys.stdout.buffer.write(b'\\0'.join(v.encode('utf-8') for v in values))\n";
        QProcess p;
        p.start(QString::fromLatin1(kPython), {"-c", QString::fromStdString(script)});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QList<QByteArray> back = p.readAllStandardOutput().split('\0');
        QCOMPARE(back.size(), int(hostile.size()));
        for (std::size_t k = 0; k < hostile.size(); ++k)
            QCOMPARE(back[int(k)].toStdString(), hostile[k]);

        // The same strings through the C++ literal, compiled and printed back.
        std::string program = "#include <iostream>\n#include <string>\n// " +
                              std::string("*/ /* comment-breaking text lives in literals only") +
                              "\nint main()\n{\n";
        for (const auto& text : hostile)
            program += "    std::cout << " + codegen::cppStringLiteral(text) + " << '\\0';\n";
        program += "}\n";
        QString error;
        QList<QByteArray> printed = compileAndRun(program, {"-Wall", "-Werror"}, error).split('\0');
        QVERIFY2(error.isEmpty(), qPrintable(error));
        printed.removeLast(); // after the final separator
        QCOMPARE(printed.size(), int(hostile.size()));
        for (std::size_t k = 0; k < hostile.size(); ++k)
            QCOMPARE(printed[int(k)].toStdString(), hostile[k]);
    }
};

QTEST_GUILESS_MAIN(TestRuleEmit)
#include "tst_rule_emit.moc"
