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

    // The reference checks read these: the first token of each logical line, and a carriage
    // return as TorchScript reads it (a blank) or as Python does (a line end).
    void logicalLineStartsAndCarriageReturns()
    {
        std::vector<std::string> starts;
        for (const auto& tok : lex("a = 1; b = (2,\n 3)\nif a:\n    c = 4\n"))
            if (tok.startsLine) starts.push_back(tok.text);
        QCOMPARE(starts, (std::vector<std::string>{"a", "if", "c"}));
        Diagnostics d;
        const auto blank = tokenize("a\rb\n", "r.py", d, CarriageReturn::Blank);
        QCOMPARE(blank[1].text, std::string("b"));
        QCOMPARE(blank[1].pos.line, 1);
        QCOMPARE(blank[1].pos.col, 3);
        QVERIFY(!blank[1].startsLine);
        const auto lineEnd = tokenize("a\rb\n", "k.py", d);
        QCOMPARE(lineEnd[2].text, std::string("b"));
        QCOMPARE(lineEnd[2].pos.line, 2);
        QVERIFY(lineEnd[2].startsLine);
        QVERIFY(d.empty());
    }

    // A text of stray characters is a bounded number of problems, not one per character.
    void lexerErrorsAreBounded()
    {
        Diagnostics d;
        lex(std::string(100000, '$'), &d);
        QCOMPARE(d.size(), std::size_t(100));
        QCOMPARE(d.front().message, std::string("invalid character '$'"));
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

    // `[pypto.DYNAMIC, ...]` is any rank from the dims it names; a list without `...` is exact.
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
        for (const char* fine :
             {"pypto.Tensor([pypto.DYNAMIC, ...], pypto.DT_FP32)",
              "pypto.Tensor([pypto.DYNAMIC, pypto.STATIC, ...], pypto.DT_FP16)",
              "pypto.Tensor[[pypto.STATIC, ...], pypto.DT_FP32]",
              "pypto.Tensor((2, 4, 8, 16), pypto.DT_FP32)", "pypto.Tensor[...]"}) {
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

    // Valid Python of every kind parses without a single diagnostic.
    void validPythonParsesClean_data()
    {
        QTest::addColumn<QString>("source");
        const char* const cases[][2] = {
            {"strings", "a = r'\\'' + rb'\\\\' + b'x' + u'y' + f'{a!r}' + F\"{b:>{w}}\"\n"
                        "b = f\"{x[\"k\"]}\" + f'{\"nested\"}' + f'{{literal}}' + f\"{x:'^10}\" + "
                        "f\"{'a' if x else 'b'}\"\n"
                        "c = f'''{a\n"
                        " + b}''' + rf'\\d{a}' + t'{a}' + \"\"\"one \"quoted\" word\"\"\"\n"},
            {"numbers", "x = 1_000 + 0x_ff + 0o17 + 0b1010 + 1e-3 + .5 + 2. + 3j + 1.5e3J + "
                        "99999999999999999999999\ny = 1if x else 2\n"},
            {"walrus and comprehensions",
             "r = [y for x in data if (y := f(x)) is not None]\n"
             "s = {a for a in b}\nd = {k: v for k, v in m.items()}\n"
             "g = sum(x * x for x in range(3))\nn = [[i async for i in a] for a in b]\n"},
            {"lambdas", "f = lambda: 0\ng = lambda a, /, b=1, *c, d, **e: (a, b, c, d, e)\n"
                        "h = sorted(xs, key=lambda v: -v)\n"},
            {"unpacking", "a, *b = c\n*a, b = c\n[a, b] = c, d\nf(*a, *b, k=1, **m, **n)\n"
                          "f(a=1, *b)\nd = {**a, 'b': 1, **c}\nt = *a, *b\nx = a[*b]\n"
                          "for a, *b in c: pass\nf(*x.shape[:2] if x else (32, 128))\n"},
            {"operators", "x = a << 2 >> 1 & b | c ^ ~d @ e\nx <<= 1; x >>= 1; x &= 1; x |= 1\n"
                          "x ^= 1; x @= m; x //= 2; x **= 2\ny = a if b else c if d else e\n"
                          "z = a < b <= c != d is not e not in f in g is h\n"
                          "w = not a and (b or c)\n"},
            {"type hints", "x: int\ny: list[dict[str, int | None]] = []\n"
                           "def f(a: 'A', *args: int, b: int = 1, **kw: str) -> tuple[int, ...]:"
                           "\n    pass\n"
                           "def g[T: (int, str), *Ts, **P](x: T) -> T: return x\n"
                           "class Box[T]:\n    item: T\n"
                           "type Alias[K] = dict[K, int]\ntype = 3\ntype(x)\n"},
            {"classes and decorators",
             "@dataclass(frozen=True)\nclass A(Base, metaclass=Meta):\n    '''doc'''\n"
             "    x: int = 0\n    @property\n    def y(self): return self.x\n"
             "    @staticmethod\n    @functools.cache\n    def z(): ...\n"
             "@buttons[0].clicked.connect\ndef on(): pass\n@(lambda f: f)\ndef g(): pass\n"},
            {"blocks", "while x:\n    x -= 1\nelse:\n    pass\nfor i in range(3):\n    continue\n"
                       "else:\n    pass\ntry:\n    pass\nexcept (A, B) as e:\n    raise\n"
                       "except C:\n    pass\nelse:\n    pass\nfinally:\n    pass\n"
                       "with a as b, c:\n    pass\nwith (a, b) as c:\n    pass\n"
                       "with (\n    open(x) as f,\n    open(y) as g,\n):\n    pass\n"
                       "if a: pass\nelif b: pass\nelse: pass\n"},
            {"scopes and statements",
             "def outer():\n    n = 0\n    def inner():\n        nonlocal n\n        global g\n"
             "        n += 1\n        return n\n    yield n\n    yield from inner()\n"
             "    x = yield\n    del a, b[0], c.d\n    assert x, 'message'\n    import os.path as p"
             "\n    from . import sibling\n    from ..pkg.mod import (a as b, c,)\n"
             "    return\nfrom __future__ import annotations\nfrom pypto import *\n"},
            {"async", "async def f():\n    async with a as b:\n        pass\n"
                      "    async for x in y:\n        await x\n    return await g() ** 2\n"},
            {"match", "match command.split():\n    case [action]:\n        pass\n"
                      "    case [\"go\", direction] | [\"move\", direction]:\n        pass\n"
                      "    case Point(x=0, y=0) as origin if origin:\n        pass\n"
                      "    case {\"x\": int(x), **rest}:\n        pass\n"
                      "    case -1 | 1.5 | 2j | 'a' | None | True | Color.RED:\n        pass\n"
                      "    case (a, b, *_):\n        pass\n    case _:\n        pass\n"
                      "match = re.match(p, s)\nmatch(x)\nmatch.group(1)\ncase = 1\n"},
            {"layout",
             "\xef\xbb\xbfx = (1 +\n     2)\ny = 1 + \\\n    2\nz = [\n    1,\n    2,\n]\n"
             "if x:\n\n    # comment\n    pass\n"},
        };
        for (const auto& c : cases)
            QTest::newRow(c[0]) << QString::fromUtf8(c[1]);
    }

    void validPythonParsesClean()
    {
        QFETCH(QString, source);
        Diagnostics d;
        parseKernel(source.toStdString(), "k.py", d);
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
