// Import: kernel files in PyPTO's style (tests/data/import_kernels) become projects that verify as
// they are imported, or say what is left to fill in, at its line. (The proposal on its own, with
// nothing run: tst_import_proposal.)
#include "import_test_support.h"
#include "importer/kernel_import.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::importer;
using namespace importtest;

class TestImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsKernelsWithoutRunning();
    void configKernelVerifiesAsImported();
    void nestedListsAreGivenAsIs();
    void pytestKernelVerifiesAsImported();
    void inlineExpectedBecomesReference();
    void literalExpectedNamedByTheKernel();
    void literalExpectedFoundFromTheKernelsOps_data();
    void literalExpectedFoundFromTheKernelsOps();
    void comparisonBelongsToTheOutputItReads();
    void goldenReadsModuleConstants();
    void maxDifferenceBoundIsTheTolerance();
    void droppedVerdictGivesNoTolerance();
    void maxDifferenceNamesTheReference();
    void numpyGoldenLeavesReferenceToWrite();
    void importFromInsideTheKernelFolder();
    void fileWithoutKernelIsAnError();
    void kernelReadingNoTensorIsAnOpWithNoInput();
    void failingHostCodeIsReportedAtItsLine();
    void neverOverwrites();
};

void TestImport::listsKernelsWithoutRunning()
{
    auto listed = listJitKernels(data("row_norm.py").toStdString());
    QVERIFY(std::holds_alternative<std::vector<JitKernel>>(listed));
    const auto& kernels = std::get<std::vector<JitKernel>>(listed);
    QCOMPARE(kernels.size(), std::size_t(1));
    QCOMPARE(kernels[0].name, std::string("row_norm_kernel"));
    QCOMPARE(kernels[0].params, (std::vector<std::string>{"x", "gamma", "out", "config"}));
    QCOMPARE(kernels[0].line, 27);

    auto none = listJitKernels(data("no_kernel.py").toStdString());
    QVERIFY(std::get<std::vector<JitKernel>>(none).empty());

    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.py"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("import pypto\n\n@pypto.frontend.jit\ndef k(x, y:\n    pass\n");
    f.close();
    auto error = listJitKernels(broken.toStdString());
    QVERIFY(std::holds_alternative<Diagnostic>(error));
    QCOMPARE(std::get<Diagnostic>(error).line, 4);

    auto missing = listJitKernels(dir.filePath(QStringLiteral("absent.py")).toStdString());
    QCOMPARE(std::get<Diagnostic>(missing).code, std::string("import.file"));
}

void TestImport::configKernelVerifiesAsImported()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("row_norm_op"));
    const auto r = import(data("row_norm.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY(r.referenceFromGolden);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("name")].toString(), QStringLiteral("row_norm"));
    QCOMPARE(op[QStringLiteral("kernel")][QStringLiteral("file")].toString(),
             QStringLiteral("row_norm.py"));
    const QJsonArray inputs = op[QStringLiteral("inputs")].toArray();
    QCOMPARE(inputs.size(), 2);
    QCOMPARE(inputs[0][QStringLiteral("name")].toString(), QStringLiteral("x"));
    QCOMPARE(inputs[0][QStringLiteral("rank")].toInt(), 2);
    QCOMPARE(inputs[1][QStringLiteral("rank")].toInt(), 1);
    const QJsonObject output = op[QStringLiteral("outputs")].toArray()[0].toObject();
    QCOMPARE(output[QStringLiteral("name")].toString(), QStringLiteral("out"));
    QCOMPARE(output[QStringLiteral("shape")].toString(), QStringLiteral("x.shape"));
    QCOMPARE(output[QStringLiteral("dtype")].toString(), QStringLiteral("x.dtype"));
    // The config: the fields the calls set, not its defaults.
    const QJsonObject config =
        op[QStringLiteral("kernel")][QStringLiteral("arguments")][QStringLiteral("config")]
            .toObject();
    QCOMPARE(config[QStringLiteral("class")].toString(), QStringLiteral("RowNormConfig"));
    const QJsonObject fields = config[QStringLiteral("fields")].toObject();
    QVERIFY2(fields.keys() == (QStringList{QStringLiteral("eps"), QStringLiteral("tile_rows")}),
             qPrintable(QJsonDocument(fields).toJson()));
    QCOMPARE(fields[QStringLiteral("eps")].toString(), QStringLiteral("1e-05"));
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                 .toDouble(),
             1e-4);
    // Both of main's calls, with torch's random fills named as fills.
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    QCOMPARE(
        cases[0][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("shape")].toArray(),
        (QJsonArray{16, 64}));
    QCOMPARE(
        cases[1][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("shape")].toArray(),
        (QJsonArray{8, 32}));
    QCOMPARE(
        cases[0][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("fill")].toString(),
        QStringLiteral("normal(0, 1)"));
    QCOMPARE(cases[0][QStringLiteral("inputs")][QStringLiteral("gamma")][QStringLiteral("fill")]
                 .toString(),
             QStringLiteral("uniform(0, 1)"));
    // The author's file, byte for byte.
    QCOMPARE(readAll(out + QStringLiteral("/row_norm.py")), readAll(data("row_norm.py")));
    QVERIFY(readAll(out + QStringLiteral("/reference.py"))
                .contains("def row_norm_golden(x: torch.Tensor"));

    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

// Nested tuples in a config field, a dict keyed by ints and nested lists passed to the kernel,
// which no rule gives, are written into kernel.arguments as JSON lists and dicts, one line
// each, and the kernel runs with them (keys that came back as strings would change its result).
void TestImport::nestedListsAreGivenAsIs()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("nested"));
    const auto r = import(data("nested_tiles.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject arguments =
        readOp(out)[QStringLiteral("kernel")][QStringLiteral("arguments")].toObject();
    QCOMPARE(
        arguments[QStringLiteral("config")][QStringLiteral("fields")][QStringLiteral("tile_shapes")]
            .toArray(),
        (QJsonArray{QJsonArray{4, 16}, QJsonArray{8, 32}}));
    QCOMPARE(arguments[QStringLiteral("offsets")].toArray(), (QJsonArray{QJsonArray{0, 1.5}}));
    QVERIFY(readAll(out + QStringLiteral("/op.json"))
                .contains("\"reuse\": {\"dict\": [[2, 4], [3, {\"dict\": []}]]}"));
    QVERIFY(readAll(out + QStringLiteral("/op.json"))
                .contains("\"tile_shapes\": [[4, 16], [8, 32]]\n"));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::pytestKernelVerifiesAsImported()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scaled_add"));
    const auto r = import(data("scaled_add_pytest.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("parameters")].toArray()[0][QStringLiteral("name")].toString(),
             QStringLiteral("scale"));
    QCOMPARE(op[QStringLiteral("parameters")].toArray()[0][QStringLiteral("type")].toString(),
             QStringLiteral("float"));
    QCOMPARE(op[QStringLiteral("outputs")].toArray()[0][QStringLiteral("shape")].toString(),
             QStringLiteral("a.shape"));
    // The skipped parametrization is left out.
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    QCOMPARE(
        cases[1][QStringLiteral("inputs")][QStringLiteral("a")][QStringLiteral("shape")].toArray(),
        (QJsonArray{12, 32}));
    QCOMPARE(cases[0][QStringLiteral("parameters")][QStringLiteral("scale")].toDouble(), 0.5);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("atol")]
                 .toDouble(),
             1e-5);
    // The golden's unannotated parameters are annotated from the calls.
    QVERIFY(readAll(out + QStringLiteral("/reference.py"))
                .contains("def scaled_add_golden(a: Tensor, b: Tensor, scale: float)"));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::inlineExpectedBecomesReference()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale_shift"));
    const auto r = import(data("scale_shift_inline.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    // The test's local names are followed back to the kernel's inputs and plain values.
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (x * 2.0 + bias)"), reference.constData());
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                 .toDouble(),
             1e-6);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::literalExpectedNamedByTheKernel()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("abs"));
    const auto r = import(data("abs_literal.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (torch.abs(x))"), reference.constData());
    // The literal input values are kept as they were.
    const QJsonObject op = readOp(out);
    QVERIFY(op[QStringLiteral("cases")]
                .toArray()[0][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("fill")]
                .toString()
                .startsWith(QStringLiteral("file:")));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::literalExpectedFoundFromTheKernelsOps_data()
{
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("expression");
    QTest::newRow("bias added") << "matmul_bias_kernel"
                                << "return (torch.matmul(a, b) + bias)";
    QTest::newRow("operand transposed") << "product_with_right_transposed"
                                        << "return (torch.matmul(a, b.transpose(-2, -1)))";
    QTest::newRow("arguments reordered") << "pick_kernel"
                                         << "return (torch.gather(source, dim, index))";
    QTest::newRow("input converted") << "convert_kernel"
                                     << "return (x.to(torch.float16))";
}

void TestImport::literalExpectedFoundFromTheKernelsOps()
{
    QFETCH(QString, kernel);
    QFETCH(QString, expression);
    QTemporaryDir dir;
    const QString out = dir.filePath(kernel);
    const auto r = import(data("literal_expected.py"), out, kernel.toStdString());
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains(expression.toUtf8()), reference.constData());
    QVERIFY2(reference.contains("Gives the literal value literal_expected.py line"),
             reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::comparisonBelongsToTheOutputItReads()
{
    // Both kernels' outputs hold [2, 4, 6, 8]; add_kernel's test reads its own output.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("add"));
    const auto r = import(data("equal_outputs.py"), out, "add_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("return (torch.add(a, b))"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    const QJsonObject f32 =
        readOp(out)[QStringLiteral("tolerance")][QStringLiteral("float32")].toObject();
    QCOMPARE(f32[QStringLiteral("rtol")].toDouble(), 1e-6);
}

void TestImport::goldenReadsModuleConstants()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("heads"));
    const auto r = import(data("heads_constants.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("x.reshape(rows, 4, -1) * 0.5"), reference.constData());
    QVERIFY2(!reference.contains("99"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::droppedVerdictGivesNoTolerance()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scaled_sum"));
    const auto r = import(data("discarded_verdict.py"), out, "scaled_sum_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    // `torch.allclose(out, golden, rtol=0, atol=1e-12)` on a line of its own: the golden is still
    // the reference, and the workbench's defaults are the tolerance.
    QVERIFY(readAll(out + QStringLiteral("/reference.py")).contains("def scaled_sum_golden"));
    QVERIFY(!readOp(out).contains(QStringLiteral("tolerance")));
    QVERIFY2(std::any_of(r.inferred.begin(), r.inferred.end(),
                         [](const std::string& line) {
                             return line.find("allclose drops its result") != std::string::npos;
                         }),
             qPrintable(describe(r)));
    // An asserted allclose in the same file gives its tolerance.
    const QString kept = dir.filePath(QStringLiteral("difference"));
    const auto asserted = import(data("discarded_verdict.py"), kept, "difference_kernel");
    QVERIFY2(asserted.ok, qPrintable(describe(asserted)));
    const QJsonObject fp32 =
        readOp(kept)[QStringLiteral("tolerance")][QStringLiteral("float32")].toObject();
    QCOMPARE(fp32[QStringLiteral("rtol")].toDouble(), 2e-4);
    QCOMPARE(fp32[QStringLiteral("atol")].toDouble(), 3e-5);
}

void TestImport::maxDifferenceBoundIsTheTolerance()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("silu"));
    const auto r = import(data("silu_max_diff.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("def silu_golden"), reference.constData());
    // `assert max_diff < 5e-2` over `(out - expected).abs().max()`: atol 0.05, no rtol.
    const QJsonObject fp32 =
        readOp(out)[QStringLiteral("tolerance")][QStringLiteral("float32")].toObject();
    QCOMPARE(fp32[QStringLiteral("atol")].toDouble(), 5e-2);
    QCOMPARE(fp32[QStringLiteral("rtol")].toDouble(), 0.0);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::maxDifferenceNamesTheReference()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("two_sums"));
    const auto r = import(data("two_sums_max_diff.py"), out, "two_sums_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    // `(first - expected)` with `expected = a + b`, and `(second - (a - b))`: the subtraction's
    // other operand, written over the inputs, is the reference of each output; the bounds (a
    // local and a module constant) the tolerance.
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (a + b), (a - b)"), reference.constData());
    const QJsonObject fp16 =
        readOp(out)[QStringLiteral("tolerance")][QStringLiteral("float16")].toObject();
    QCOMPARE(fp16[QStringLiteral("atol")].toDouble(), 1e-2);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImport::numpyGoldenLeavesReferenceToWrite()
{
    // NumPy is outside the reference subset: the golden is kept below a TODO.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("row_sum"));
    const auto r = import(data("col_sum_numpy.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("outputs")].toArray()[0][QStringLiteral("shape")].toString(),
             QStringLiteral("[x.shape[0], 1]"));
    // arange values are not a random fill: the recorded inputs are kept as .npy files.
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    const QString fill =
        cases[0][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("fill")].toString();
    QVERIFY2(fill.startsWith(QStringLiteral("file:cases/")), qPrintable(fill));
    QVERIFY(QFile::exists(out + QLatin1Char('/') + fill.mid(5)));
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("atol")]
                 .toDouble(),
             1e-4);
    // The TODO is reported at its line.
    const Diagnostic* todo = find(r, "import.reference");
    QVERIFY2(todo, qPrintable(describe(r)));
    QVERIFY(todo->file.ends_with("reference.py"));
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QCOMPARE(reference.split('\n')[todo->line - 1].trimmed().left(24),
             QByteArray("raise RuntimeError(\"TODO"));
    QVERIFY(reference.contains("# def col_sum_golden"));
    // Until it is written, each case checks the values the test compared the output with, so
    // the project verifies as imported; a kernel that sums less then fails.
    QCOMPARE(todo->severity, Severity::Warning);
    QVERIFY(cases[1][QStringLiteral("expected")][QStringLiteral("out")].toString().startsWith(
        QStringLiteral("file:")));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(editFile(out + QStringLiteral("/col_sum_numpy.py"), "pypto.sum(x, dim=-1",
                     "pypto.amax(x, dim=-1"));
    QVERIFY(verify(out).first != 0);
}

void TestImport::importFromInsideTheKernelFolder()
{
    // Authors run from their kernel's folder: nothing of the workbench's own is taken for a
    // module of the project.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(data("row_norm.py"), dir.filePath(QStringLiteral("row_norm.py"))));
    const QString previous = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const auto r =
        import(dir.filePath(QStringLiteral("row_norm.py")), dir.filePath(QStringLiteral("op")));
    QDir::setCurrent(previous);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(
        QDir(dir.filePath(QStringLiteral("op"))).entryList({QStringLiteral("*.py")}, QDir::Files),
        (QStringList{QStringLiteral("reference.py"), QStringLiteral("row_norm.py")}));
}

void TestImport::fileWithoutKernelIsAnError()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("none"));
    const auto r = import(data("no_kernel.py"), out);
    QVERIFY(!r.ok);
    QVERIFY2(find(r, "import.kernel") &&
                 find(r, "import.kernel")->message.find("no @pypto.frontend.jit") !=
                     std::string::npos,
             qPrintable(describe(r)));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList());
}

void TestImport::kernelReadingNoTensorIsAnOpWithNoInput()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("fill"));
    const auto r = import(data("fill_only.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("inputs")].toArray().size(), 0);
    QCOMPARE(op[QStringLiteral("parameters")].toArray()[0][QStringLiteral("name")].toString(),
             QStringLiteral("value"));
    const QJsonObject output = op[QStringLiteral("outputs")].toArray()[0].toObject();
    QCOMPARE(output[QStringLiteral("shape")].toString(), QStringLiteral("[8, 16]"));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(editFile(out + QStringLiteral("/fill_only.py"), "[8, 16], value,",
                     "[8, 16], value + 1.0,"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
    // The test compares with torch.full((8, 16), 2.5), 2.5 being the parameter's value in the
    // call: no constant is the reference of an op with a parameter.
    QVERIFY(!readAll(out + QStringLiteral("/reference.py")).contains("2.5"));

    // An op that takes nothing: the constant its test compares with is its reference.
    const QString ones = dir.filePath(QStringLiteral("ones"));
    const auto o = import(data("constant_only.py"), ones);
    QVERIFY2(o.ok, qPrintable(describe(o)));
    QCOMPARE(countErrors(o.diagnostics), 0);
    QVERIFY2(!find(o, "import.reference"), qPrintable(describe(o)));
    const QByteArray reference = readAll(ones + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("torch.ones([8, 16], dtype=torch.float32)"), reference.constData());
    const auto [exported, why] = cli({QStringLiteral("export"), ones});
    QVERIFY2(exported == 0, qPrintable(why));
    QVERIFY(editFile(ones + QStringLiteral("/constant_only.py"), "16], 1.0,", "16], 2.0,"));
    const auto [wrong, text2] = verify(ones);
    QVERIFY2(wrong != 0 && text2.contains(QStringLiteral("FAIL")), qPrintable(text2));
}

void TestImport::failingHostCodeIsReportedAtItsLine()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("neg"));
    const auto r = import(data("host_fails.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const Diagnostic* host = find(r, "import.host-code");
    QVERIFY2(host, qPrintable(describe(r)));
    QCOMPARE(host->line, 15);
    QVERIFY(host->message.find("the test data is missing") != std::string::npos);
    const Diagnostic* noCall = find(r, "import.no-call");
    QVERIFY(noCall);
    QVERIFY(noCall->file.ends_with("op.json"));
    QVERIFY(noCall->line > 1);
    QVERIFY2(noCall->message.find("stopped with an error first") != std::string::npos,
             noCall->message.c_str());
    // A scalar parameter has no value because nothing called the kernel, not because the calls
    // left it out.
    const Diagnostic* offset = find(r, "import.argument");
    QVERIFY2(offset && offset->message.find("'offset' has no value, as no call of the kernel was "
                                            "recorded") != std::string::npos,
             qPrintable(describe(r)));
}

void TestImport::neverOverwrites()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("taken"));
    QVERIFY(QDir().mkpath(out));
    QFile keep(out + QStringLiteral("/op.json"));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.write("{\"mine\": true}");
    keep.close();
    const auto r = import(data("row_norm.py"), out);
    QVERIFY(!r.ok);
    QVERIFY(find(r, "import.exists"));
    QCOMPARE(readAll(out + QStringLiteral("/op.json")), QByteArray("{\"mine\": true}"));
}

QTEST_GUILESS_MAIN(TestImport)
#include "tst_import.moc"
