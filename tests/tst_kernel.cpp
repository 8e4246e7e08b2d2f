// The kernel checks: the API table, every diagnostic kind at its exact line:column
// (tests/data/kernel_broken/*.py state theirs in "# expect:" lines), help for every function.
// Tokens and the parse tree: tst_kernel_parser.
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

// Every diagnostic as "line:col code message", in the order reported.
std::vector<std::string> problems(const std::string& text, const OpSpec& spec)
{
    std::vector<std::string> out;
    for (const auto& d : checkKernelSource(text, spec, "kernel.py"))
        out.push_back(std::to_string(d.line) + ":" + std::to_string(d.col) + " " + d.code + " " +
                      d.message);
    return out;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
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
            QVERIFY2(api->category == e["category"].get<std::string>() &&
                         params == e["params"].get<std::vector<std::string>>() &&
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

    // A dataclass (or any class, decorator or construct the checks are not about) leaves every
    // check on: the misspelt function is still reported at its column.
    void dataclassKeepsChecksOn()
    {
        const std::string text = "from dataclasses import dataclass, field\n"
                                 "import pypto\n"
                                 "\n"
                                 "\n"
                                 "@dataclass(frozen=True)\n"
                                 "class Config:\n"
                                 "    rows: int = 8\n"
                                 "    tiles: list[int] = field(default_factory=lambda: [8, 64])\n"
                                 "\n"
                                 "\n"
                                 "@pypto.frontend.jit()\n"
                                 "def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...],"
                                 " scale: float, channels: int):\n"
                                 "    cfg = Config()\n"
                                 "    v = pypto.veiw(x, [cfg.rows, 64], [0, 0])\n"
                                 "    y[:] = v\n";
        QCOMPARE(joined(problems(text, sampleSpec("scale_gelu"))),
                 std::string("14:15 kernel.unknown-function unknown pypto function 'veiw'; did you "
                             "mean 'view'?\n"));
    }

    // Lambdas, walrus, match, f-strings, comprehensions, star-args, while/try/with, nested
    // functions and classes, type hints: the wrong binding is still found, at the parameter.
    void modernPythonKeepsBindingChecks()
    {
        const std::string text =
            "import pypto\n"
            "\n"
            "SCALE = {'a': 1, **{'b': 2}}\n"
            "\n"
            "\n"
            "@pypto.frontend.jit(runtime_options={\"run_mode\": pypto.RunMode.SIM})\n"
            "def scale_gelu_kernel(x: pypto.Tensor[...], y: pypto.Tensor[...], scale: float,\n"
            "                      chanels: int, *rest, flag: bool = False):\n"
            "    rows, *others = x.shape\n"
            "    pick = lambda t, k=2: t * k\n"
            "    if (n := len(others)) > 0:\n"
            "        print(f\"{n!r:>4} dims, {x.shape[0]:{'>'}8}\", *others, sep=\"\")\n"
            "    match rows:\n"
            "        case 0 | 1:\n"
            "            pass\n"
            "        case [a, *tail] if a > 0:\n"
            "            pass\n"
            "        case {\"k\": v, **kw}:\n"
            "            pass\n"
            "        case Point(x=0) as p:\n"
            "            pass\n"
            "        case _:\n"
            "            pass\n"
            "    squares = {i: i * i for i in range(4) if i % 2}\n"
            "    while False:\n"
            "        break\n"
            "    try:\n"
            "        pass\n"
            "    except* ValueError as e:\n"
            "        raise RuntimeError() from e\n"
            "    finally:\n"
            "        pass\n"
            "    with (open('a') as f, open('b') as g):\n"
            "        pass\n"
            "\n"
            "    class Local:\n"
            "        def method(self) -> int:\n"
            "            return 1\n"
            "\n"
            "    def helper(t: pypto.Tensor, /, *, k: int = 1) -> pypto.Tensor:\n"
            "        return pick(t, k)\n"
            "\n"
            "    y[:] = helper(pypto.exp(x))\n";
        QCOMPARE(joined(problems(text, sampleSpec("scale_gelu"))),
                 std::string("8:23 kernel.unbound-parameter kernel parameter 'chanels' is not an "
                             "input, output or parameter of the op; did you mean 'channels'?\n"));
    }

    // A kernel made inside a test (kernel.made_by) is found there and checked once: its
    // parameters bind, its body's pypto calls are checked, closure names are the test's.
    void kernelMadeInsideATest()
    {
        OpSpec spec = sampleSpec("scale_gelu");
        spec.kernel.madeBy = "TestGelu.test_gelu[fp16]";
        const std::string text =
            "import pypto\n"
            "\n"
            "class TestGelu:\n"
            "    def test_gelu(self, tile):\n"
            "        @pypto.frontend.jit\n"
            "        def scale_gelu_kernel(x, y, scale: float, chanels: int):\n"
            "            pypto.set_vec_tile_shapes(tile, 32)\n"
            "            y[:] = pypto.gelu_fast(x)\n"
            "        scale_gelu_kernel(1, 2, 1.0, 3)\n";
        QCOMPARE(joined(problems(text, spec)),
                 std::string("6:51 kernel.unbound-parameter kernel parameter 'chanels' is not an "
                             "input, output or parameter of the op; did you mean 'channels'?\n"
                             "8:26 kernel.unknown-function unknown pypto function 'gelu_fast'\n"));
        // Without made_by the kernel is looked for at the top level only (the description's
        // check reports it missing).
        QCOMPARE(joined(problems(text, sampleSpec("scale_gelu"))), std::string());
    }

    // Helpers and module code call pypto too, and fail the same run when they misspell it; a
    // dtype PyPTO has but the simulator does not is only a warning.
    void helpersAndDtypes()
    {
        const std::string text = "import pypto\n"
                                 "\n"
                                 "\n"
                                 "def helper(t):\n"
                                 "    return pypto.epx(t)\n"
                                 "\n"
                                 "\n"
                                 "def scale_gelu_kernel(x, y, scale, channels):\n"
                                 "    q = pypto.cast(x, pypto.DT_FP8E4M3)\n"
                                 "    y[:] = helper(x)\n";
        const Diagnostics d = checkKernelSource(text, sampleSpec("scale_gelu"), "kernel.py");
        QCOMPARE(d.size(), std::size_t(2));
        QCOMPARE(d[0].line, 9);
        QCOMPARE(d[0].col, 29);
        QCOMPARE(d[0].code, std::string("kernel.unknown-dtype"));
        QVERIFY(d[0].severity == Severity::Warning);
        QCOMPARE(d[1].line, 5);
        QCOMPARE(d[1].col, 18);
        QCOMPARE(d[1].message, std::string("unknown pypto function 'epx'; did you mean 'exp'?"));
    }

    // The file's other kernels are not run by this one: a wrong call there is theirs to report
    // (PyPTO's function.py calls pypto.transpose(k, [0, 1, 3, 2]) in one of its five kernels).
    // A helper's wrong call still is this kernel's, whatever name jit was imported under.
    void otherKernelsAreNotChecked()
    {
        const std::string text = "import pypto\n"
                                 "from pypto import frontend as fe\n"
                                 "\n"
                                 "\n"
                                 "@fe.jit(runtime_options={})\n"
                                 "def attention_kernel(k, out):\n"
                                 "    out[:] = pypto.transpose(k, [0, 1, 3, 2])\n"
                                 "\n"
                                 "\n"
                                 "def helper(t):\n"
                                 "    return pypto.transpose(t, [1, 0])\n"
                                 "\n"
                                 "\n"
                                 "@pypto.frontend.jit\n"
                                 "def scale_gelu_kernel(x, y, scale, channels):\n"
                                 "    y[:] = pypto.exp(x)\n";
        const Diagnostics d = checkKernelSource(text, sampleSpec("scale_gelu"), "kernel.py");
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(d[0].line, 11);
        QCOMPARE(d[0].code, std::string("kernel.arguments"));
        QCOMPARE(d[0].message, std::string("pypto.transpose needs argument 'dim1'"));
    }

    // `[pypto.DYNAMIC, ...]` is any rank from the dims it names; so is a list of STATIC /
    // DYNAMIC markers and sizes, as PyPTO's jit checks it (its status shape); a list of sizes
    // alone, or a tuple, is exact.
    void ellipsisAnnotationIsOpenRank()
    {
        OpSpec spec = sampleSpec("scale_gelu");
        spec.inputs[0].rank = 4;
        for (CaseSpec& c : spec.cases)
            c.inputs[0].shape = {4, 256, 2, 2};
        auto kernel = [](const std::string& annotation) {
            return "import pypto\n\n\ndef scale_gelu_kernel(x: " + annotation +
                   ", y: pypto.Tensor([pypto.DYNAMIC, ...], pypto.DT_FP32), scale: float, "
                   "channels: int):\n    y[:] = x\n";
        };
        for (const char* fine : {"pypto.Tensor([pypto.DYNAMIC, ...], pypto.DT_FP32)",
                                 "pypto.Tensor([pypto.DYNAMIC, pypto.STATIC, ...], pypto.DT_FP16)",
                                 "pypto.Tensor[[pypto.STATIC, ...], pypto.DT_FP32]",
                                 "pypto.Tensor((2, 4, 8, 16), pypto.DT_FP32)", "pypto.Tensor[...]",
                                 "pypto.Tensor([pypto.STATIC, pypto.STATIC], pypto.DT_FP32)",
                                 "pypto.Tensor([pypto.DYNAMIC, 256])"}) {
            const auto got = problems(kernel(fine), spec);
            QVERIFY2(got.empty(), (std::string(fine) + ": " + joined(got)).c_str());
        }
        QCOMPARE(
            joined(problems(kernel("pypto.Tensor([1, 2, 3, 4, 5, ...], pypto.DT_FP32)"), spec)),
            std::string("4:39 kernel.annotation the annotation gives input 'x' at least rank "
                        "5, but the op says rank 4\n"));
        QCOMPARE(joined(problems(kernel("pypto.Tensor[[2, 4], pypto.DT_FP32]"), spec)),
                 std::string("4:39 kernel.annotation the annotation gives input 'x' rank 2, but "
                             "the op says rank 4\n"));
        QCOMPARE(
            joined(problems(kernel("pypto.Tensor([pypto.DYNAMIC, 1, 2, 3, pypto.STATIC])"), spec)),
            std::string("4:39 kernel.annotation the annotation gives input 'x' at least rank "
                        "5, but the op says rank 4\n"));
        QCOMPARE(joined(problems(kernel("pypto.Tensor((pypto.DYNAMIC, 256))"), spec)),
                 std::string("4:39 kernel.annotation the annotation gives input 'x' rank 2, but "
                             "the op says rank 4\n"));
    }

    // pypto.tensor(), an annotation object defined at module level, TensorAnnotation and names
    // the checker cannot resolve: understood or skipped, never refused.
    void annotationObjects()
    {
        const OpSpec spec = sampleSpec("scale_gelu");
        auto kernel = [](const std::string& prelude, const std::string& annotation) {
            return "import pypto\nfrom pypto.tensor import TensorAnnotation\nimport torch\n" +
                   prelude + "\n\n\ndef scale_gelu_kernel(x: " + annotation +
                   ", y: pypto.tensor(), scale: float, channels: int):\n    y[:] = x\n";
        };
        const std::vector<std::pair<std::string, std::string>> fine{
            {"", "pypto.tensor()"},
            {"", "pypto.tensor([pypto.DYNAMIC, 8], pypto.DT_FP16)"},
            {"X_DEF = pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_FP32)", "X_DEF"},
            {"X_DEF = TensorAnnotation([4, 64], pypto.DT_FP16)", "X_DEF"},
            {"def make():\n    return pypto.Tensor()", "make()"},
            {"", "'pypto.Tensor'"},
            {"", "torch.Tensor"},
            {"", "UNDEFINED_SPEC"}};
        for (const auto& [prelude, annotation] : fine) {
            const auto got = problems(kernel(prelude, annotation), spec);
            QVERIFY2(got.empty(), (annotation + ": " + joined(got)).c_str());
        }
        QCOMPARE(
            joined(problems(
                kernel("X_DEF = pypto.Tensor([pypto.DYNAMIC, 64], pypto.DT_INT8)", "X_DEF"), spec)),
            std::string("7:26 kernel.annotation the annotation fixes input 'x' to DT_INT8 "
                        "(int8), but the op allows 'float16', 'float32'\n"));
        QCOMPARE(joined(problems(kernel("", "int"), spec)),
                 std::string("7:26 kernel.annotation input 'x' is a tensor; annotate it "
                             "pypto.Tensor[...] or pypto.Tensor([], DT)\n"));
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
        // Blocks, lambdas, f-strings and patterns nest too: each is bounded as CPython bounds it.
        std::string blocks;
        for (int k = 0; k < 300; ++k)
            blocks += std::string(std::size_t(k), ' ') + "if x:\n";
        blocks += std::string(300, ' ') + "pass\n";
        std::string fstring = "x", fields = "x";
        for (int k = 0; k < 2000; ++k) {
            fstring = "f'{" + fstring + "}'";
            fields = "{x:" + fields + "}";
        }
        fstring = "y = " + fstring + "\n";
        fields = "y = f'" + fields + "'\n";
        for (const std::string& text :
             {blocks, "def f():\n" + blocks, fstring, "x = " + repeat("lambda: ", 100000) + "1\n",
              "x = " + repeat("await ", 100000) + "y\n", "x = " + repeat("{**", 100000) + "\n",
              fields, "match x:\n    case " + repeat("[", 100000) + ":\n        pass\n",
              "x = 1 " + repeat("if a else 1 ", 100000) + "\n", "def f(" + repeat("a=(", 100000)}) {
            Diagnostics parsed;
            parseKernel(text, "k.py", parsed);
            QVERIFY(hasErrors(parsed));
            checkKernelSource(text, spec, "kernel.py");
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
