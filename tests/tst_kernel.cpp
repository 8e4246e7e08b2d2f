// The kernel frontend: tokens, the parse tree, and every diagnostic kind at its exact
// line:column (tests/data/kernel_broken/*.py state theirs in "# expect:" lines).
#include "kernel/kernel_check.h"
#include "kernel/kernel_parser.h"
#include "kernel/pypto_api.h"
#include "spec/op_spec_loader.h"
#include "worker_client/worker_client.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace ptowb;
using namespace ptowb::kernel;

namespace {

OpSpec sampleSpec(const char* name)
{
    SpecLoadResult r =
        loadOpSpecFile(std::string(PTOWB_SOURCE_DIR "/projects/") + name + "/op.json");
    if (!r.usable()) qFatal("sample %s does not load", name);
    return r.spec;
}

std::string readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

std::vector<Token> lex(const std::string& text, Diagnostics* out = nullptr)
{
    Diagnostics d;
    auto tokens = tokenize(text, "k.py", d);
    if (out)
        *out = d;
    else if (!d.empty())
        qWarning("%s", formatDiagnostic(d[0]).c_str());
    return tokens;
}

} // namespace

class TestKernel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The table (completion, hover help, the checks) and the worker's pypto module agree on
    // every name and parameter: tests/tools/pypto_api_table.py writes the one from the other.
    void apiTableMatchesTheModule()
    {
        const nlohmann::json answer =
            worker::WorkerClient::shared().call({{"op", "api"}}, 30, nullptr);
        QCOMPARE(QString::fromStdString(answer.value("status", "")), QStringLiteral("ok"));
        std::size_t functions = 0;
        for (const auto& e : answer["api"]) {
            const std::string name = e["name"];
            const kernel::ApiFunction* api = kernel::findApi(name);
            QVERIFY2(api,
                     ("the table lacks " + name + ": run tests/tools/pypto_api_table.py").c_str());
            std::vector<std::string> params(api->params.begin(), api->params.end()),
                keywords(api->keywordOnly.begin(), api->keywordOnly.end());
            QVERIFY2(params == e["params"].get<std::vector<std::string>>() &&
                         keywords == e["keyword_only"].get<std::vector<std::string>>() &&
                         api->required == e["required"].get<int>() &&
                         api->variadic == e["variadic"].get<bool>() &&
                         api->variadicKeywords == e["var_keywords"].get<bool>() &&
                         api->simulated == e["simulated"].get<bool>(),
                     ("the table's " + name + " differs from the module's").c_str());
            ++functions;
        }
        QCOMPARE(functions, kernel::pyptoApi().size());
        QCOMPARE(answer["constants"].size(), kernel::pyptoConstants().size());
        for (const auto& c : answer["constants"])
            QVERIFY(kernel::isPyptoConstant(c.get<std::string>()));
    }

    void numbersAndStrings()
    {
        const auto t =
            lex("a = 1e-3 + 0x1f + 1_000 + .5 + 2. + 'it''s' + \"\"\"tri\nple\"\"\" + r'\\n'\n");
        std::vector<std::pair<TokenKind, std::string>> got;
        for (const auto& tok : t)
            if (tok.kind != TokenKind::Op) got.push_back({tok.kind, tok.text});
        const std::vector<std::pair<TokenKind, std::string>> want{
            {TokenKind::Name, "a"},     {TokenKind::Float, "1e-3"}, {TokenKind::Int, "0x1f"},
            {TokenKind::Int, "1000"},   {TokenKind::Float, ".5"},   {TokenKind::Float, "2."},
            {TokenKind::String, "it"},  {TokenKind::String, "s"},   {TokenKind::String, "tri\nple"},
            {TokenKind::String, "\\n"}, {TokenKind::Newline, "\n"}, {TokenKind::End, ""}};
        QCOMPARE(got.size(), want.size());
        for (std::size_t k = 0; k < want.size(); ++k) {
            QCOMPARE(int(got[k].first), int(want[k].first));
            QCOMPARE(got[k].second, want[k].second);
        }
    }

    void indentationAndJoining()
    {
        const auto t = lex("def f(a,\n      b):  # comment\n    x = [1,\n  2]\n\n    # only a "
                           "comment\n    y = x \\\n        + 1\nz = 2\n");
        int indents = 0, dedents = 0, newlines = 0;
        for (const auto& tok : t) {
            indents += tok.kind == TokenKind::Indent;
            dedents += tok.kind == TokenKind::Dedent;
            newlines += tok.kind == TokenKind::Newline;
        }
        QCOMPARE(indents, 1);
        QCOMPARE(dedents, 1);
        QCOMPARE(newlines, 4); // def line, x = [...], y = ..., z = 2
        const auto z =
            std::find_if(t.begin(), t.end(), [](const Token& tok) { return tok.text == "z"; });
        QCOMPARE(z->pos.line, 9);
        QCOMPARE(z->pos.col, 1);
    }

    void parseTree()
    {
        Diagnostics d;
        const Module m = parseKernel(
            "import pypto as pp\nfrom pypto import "
            "exp\n\n@pp.frontend.jit(runtime_options={'run_mode': pp.RunMode.SIM})\n"
            "def k(x: pp.Tensor[...], y: pp.Tensor([pp.DYNAMIC, 8], pp.DT_FP32), n: int = 3):\n"
            "    b, s = x.shape\n    y[0:1, ..., ::2] = exp(x[:, :n]) * -2 ** 2\n"
            "    for i in pp.loop(0, b, 1, name='L', idx_name='i'):\n        y.move(x if n > 1 "
            "else x)\n",
            "k.py", d);
        for (const auto& diag : d)
            qWarning("%s", formatDiagnostic(diag).c_str());
        QVERIFY(d.empty());
        QCOMPARE(m.imports.size(), std::size_t(2));
        QCOMPARE(m.imports[1].second, std::string("pypto.exp"));
        QCOMPARE(m.functions.size(), std::size_t(1));
        const FunctionDef& f = m.functions[0];
        QCOMPARE(f.params.size(), std::size_t(3));
        QVERIFY(f.params[2].defaultValue);
        QCOMPARE(f.body.size(), std::size_t(3));
        const Stmt& assign = f.body[1];
        QCOMPARE(int(assign.kind), int(StmtKind::Assign));
        const ExprPtr& target = assign.targets[0];
        QCOMPARE(int(target->kind), int(ExprKind::Subscript));
        QCOMPARE(target->kids.size(), std::size_t(4)); // y, 0:1, ..., ::2
        QCOMPARE(int(target->kids[2]->kind), int(ExprKind::Ellipsis));
        QCOMPARE(int(target->kids[3]->kind), int(ExprKind::Slice));
        // -2 ** 2 is -(2 ** 2), as in Python.
        const ExprPtr& product = assign.value;
        QCOMPARE(product->text, std::string("*"));
        QCOMPARE(product->kids[1]->text, std::string("-"));
        QCOMPARE(int(f.body[2].kind), int(StmtKind::For));
        QCOMPARE(f.body[2].value->keywords.size(), std::size_t(2));
        QCOMPARE(f.body[2].body[0].pos.line, 9);
        QCOMPARE(f.body[2].body[0].pos.col, 9);
    }

    void samplesCheckClean_data()
    {
        QTest::addColumn<QString>("project");
        for (const char* name : {"scale_gelu", "softmax", "matmul_bias"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void samplesCheckClean()
    {
        QFETCH(QString, project);
        const OpSpec spec = sampleSpec(project.toUtf8().constData());
        const Diagnostics d =
            checkKernelSource(readAll(QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + project +
                                      QStringLiteral("/kernel.py")),
                              spec, "kernel.py");
        for (const auto& diag : d)
            qWarning("%s", formatDiagnostic(diag).c_str());
        QVERIFY(d.empty());
    }

    void brokenKernels_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& name : QDir(QStringLiteral(PTOWB_TEST_DATA "/kernel_broken"))
                                       .entryList({QStringLiteral("*.py")}))
            QTest::newRow(qPrintable(name))
                << QStringLiteral(PTOWB_TEST_DATA "/kernel_broken/") + name;
    }

    // Every diagnostic is expected, at its line:column, with its code and message.
    void brokenKernels()
    {
        QFETCH(QString, path);
        const std::string text = readAll(path);
        std::vector<std::string> expected;
        std::size_t at = 0;
        while ((at = text.find("# expect: ", at)) != std::string::npos) {
            const std::size_t end = text.find('\n', at);
            expected.push_back(text.substr(at + 10, end - at - 10));
            at = end;
        }
        QVERIFY(!expected.empty());
        const Diagnostics d = checkKernelSource(text, sampleSpec("scale_gelu"), "kernel.py");
        std::vector<std::string> got;
        for (const auto& diag : d)
            got.push_back(std::to_string(diag.line) + ":" + std::to_string(diag.col) + " " +
                          diag.code + " " + diag.message);
        std::sort(got.begin(), got.end());
        std::sort(expected.begin(), expected.end());
        for (const auto& g : got)
            if (std::find(expected.begin(), expected.end(), g) == expected.end())
                qWarning("unexpected: %s", g.c_str());
        for (const auto& e : expected)
            if (std::find(got.begin(), got.end(), e) == got.end())
                qWarning("missing:    %s", e.c_str());
        QVERIFY(got == expected);
    }

    void hostileInputDoesNotCrash()
    {
        for (const std::string& text :
             {std::string(), std::string("\n\n\n"), std::string(5000, '('),
              std::string(5000, ' ') + "x", std::string("def"),
              std::string("\xff\xfe\x00garbage", 10), std::string("@\n"), std::string("def f(:\n"),
              std::string("x = [1, 2\n"), std::string("'''"),
              std::string("\t\tdef f():\n pass\n")}) {
            Diagnostics d;
            parseKernel(text, "k.py", d);
        }
        // Deep nesting is reported, not a stack overflow.
        Diagnostics d;
        parseKernel("x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "\n",
                    "k.py", d);
        QVERIFY(hasErrors(d));
        // So are long chains, whose trees are as deep as the chain is long: each is either
        // parsed or refused by the parser, and then checked and freed without overflowing.
        auto repeat = [](const std::string& piece, int n) {
            std::string out;
            for (int k = 0; k < n; ++k)
                out += piece;
            return out;
        };
        const OpSpec spec = sampleSpec("scale_gelu");
        for (const std::string& line :
             {"x = 1" + repeat(" + 1", 200000), "x = a" + repeat(".b", 200000),
              "x = f" + repeat("(1)", 100000), "x = " + repeat("not ", 100000) + "y",
              "x = " + repeat("-", 100000) + "1", "x = 2" + repeat(" ** 2", 100000),
              "x = a" + repeat(" or a", 100000) + repeat(" and b", 100000),
              "x = v" + repeat("[0]", 100000)}) {
            for (const std::string& text :
                 {line + "\n", "def f():\n    " + line + "\n    return x\n"}) {
                Diagnostics parsed;
                parseKernel(text, "k.py", parsed);
                checkKernelSource(text, spec, "kernel.py");
            }
        }
        Diagnostics longButFine;
        parseKernel("def f():\n    return 1" + repeat(" + 1", 3000) + "\n", "k.py", longButFine);
        QVERIFY2(!hasErrors(longButFine),
                 longButFine.empty() ? "" : longButFine.front().message.c_str());
    }

    // Hover help comes from the same table the checker uses: every function has it.
    void apiHelpForEveryFunction()
    {
        for (const auto& f : kernel::pyptoApi()) {
            const std::string help = kernel::apiHelp(f.name);
            QVERIFY2(help.rfind("pypto." + std::string(f.name) + "(", 0) == 0, help.c_str());
            QVERIFY2(help.find('\n') != std::string::npos && help.back() == '.', help.c_str());
        }
        QCOMPARE(kernel::apiHelp("set_vec_tile_shapes").substr(0, 32),
                 std::string("pypto.set_vec_tile_shapes(*args)"));
        QVERIFY(kernel::apiHelp("sum").find("keepdim=...") != std::string::npos);
        QVERIFY(kernel::apiHelp("DT_BF16").find("bfloat16") != std::string::npos);
        QVERIFY(kernel::apiHelp("Tensor").find("annotation") != std::string::npos);
        QVERIFY(kernel::apiHelp("jit").find("kernel") != std::string::npos);
        QVERIFY(kernel::apiHelp("no_such_function").empty());
        QVERIFY(kernel::apiHelp("").empty());
    }
};

QTEST_GUILESS_MAIN(TestKernel)
#include "tst_kernel.moc"
