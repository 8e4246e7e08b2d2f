// The kernel frontend's lexer and parser: logical lines, tokens, indentation, the parse tree, and
// valid Python of every form a kernel file may hold parsing with no diagnostic.
#include "kernel/kernel_parser.h"

#include <QTest>

using namespace ptowb;
using namespace ptowb::kernel;

namespace {

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

class TestKernelParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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

    // `from` with no module before `import` is an error at `import`; relative imports are not.
    void fromWithoutAModule()
    {
        Diagnostics d;
        parseKernel("from import x\n", "k.py", d);
        QCOMPARE(d.size(), std::size_t(1));
        QCOMPARE(d[0].line, 1);
        QCOMPARE(d[0].col, 6);
        QCOMPARE(d[0].message, std::string("expected a module name after 'from', found 'import'"));
        Diagnostics relative;
        const Module m = parseKernel("from . import x\nfrom .. import y\n", "k.py", relative);
        QVERIFY(relative.empty());
        QCOMPARE(m.imports[0].second, std::string(".x"));
        QCOMPARE(m.imports[1].second, std::string("..y"));
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
};

QTEST_GUILESS_MAIN(TestKernelParser)
#include "tst_kernel_parser.moc"
