// Import of kernels made inside functions (op.json's kernel.made_by, with pytest fixtures), of
// configs kept in a module of a subfolder or differing between calls, and of a package's file
// that imports relatively: what is listed, what import writes, and that verify runs the kernel the
// named function builds.
#include "import_test_support.h"
#include "importer/kernel_import.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;
using namespace ptowb::importer;
using namespace importtest;

class TestImportMade : public QObject
{
    Q_OBJECT

private slots:
    void configFromASubfolderModule();
    void callsInAnotherConfigurationAreNoCases();
    void callsTheAnnotationsRejectAreNoCases();
    void factoryTakesADataclassConfig();
    void uncalledFactoryKernelTakesATestCopysCalls();
    void kernelsMadeInsideFunctions();
    void kernelMadeWhereNothingBuildsIt();
    void kernelMadeByAFunctionNothingRuns();
    void kernelMadeByTheMainBlock();
    void kernelMadeAgainForAnotherShape();
    void kernelOfAPackageMadeByAFactory();
    void factoryThatRebindsItsParameters();
    void testTakingPytestFixtures();
    void testArgumentsFromTheMainBlock();
    void kernelImportingItsPackageRelatively();
};

void TestImportMade::configFromASubfolderModule()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("config_in_subfolder/kernel.py"), out);
    QVERIFY2(r.ok && !find(r, "import.argument"), qPrintable(describe(r)));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/_cfg/tiles.py")));
    const QJsonObject config = readOp(out)
                                   .value(QStringLiteral("kernel"))
                                   .toObject()
                                   .value(QStringLiteral("arguments"))
                                   .toObject()
                                   .value(QStringLiteral("config"))
                                   .toObject();
    QCOMPARE(config.value(QStringLiteral("class")).toString(), QStringLiteral("TileConfig"));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

static void setMadeBy(const QString& project, const QString& madeBy)
{
    QJsonObject op = readOp(project);
    QJsonObject kernel = op.value(QStringLiteral("kernel")).toObject();
    kernel[QStringLiteral("made_by")] = madeBy;
    op[QStringLiteral("kernel")] = kernel;
    QFile f(project + QStringLiteral("/op.json"));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(op).toJson());
}

// A sweep over batches calls a kernel annotated with a fixed batch of 1 with 2 and 4 too: those
// calls fail before the kernel runs, as PyPTO's jit rejects them, and are left out, named.
void TestImportMade::callsTheAnnotationsRejectAreNoCases()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    const auto r = import(data("fixed_batch_sweep.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* rejected = find(r, "import.rejected-calls");
    QVERIFY2(rejected && rejected->severity == Severity::Warning, qPrintable(describe(r)));
    QVERIFY2(rejected->message.find("2 recorded call(s)") != std::string::npos &&
                 rejected->message.find("test_batches: kernel parameter 'x' is annotated with "
                                        "shape [1, 8, 32], but the case passes [2, 8, 32]") !=
                     std::string::npos,
             rejected->message.c_str());
    QVERIFY2(!find(r, "import.kernel-failed"), qPrintable(describe(r)));
    QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 1);
    QVERIFY(readAll(out + QStringLiteral("/reference.py")).contains("return x * 2.0"));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

// A factory that takes a dataclass config whose defaults op.json cannot spell (-inf, a torch
// dtype), called from a test in a folder above: made_with names the class from the kernel's
// package (the test loaded its module as _ops.block.block_common) and the changed fields.
void TestImportMade::factoryTakesADataclassConfig()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("block"));
    const auto r = import(data("made_with_config/_ops/block/block_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject kernel = readOp(out)[QStringLiteral("kernel")].toObject();
    QCOMPARE(kernel[QStringLiteral("made_by")].toString(), QStringLiteral("get_kernel"));
    const QJsonObject with = kernel[QStringLiteral("made_with")].toObject();
    QCOMPARE(with[QStringLiteral("cols")].toString(), QStringLiteral("32"));
    const QJsonObject cfg = with[QStringLiteral("cfg")].toObject();
    QCOMPARE(cfg[QStringLiteral("class")].toString(), QStringLiteral("block_common.BlockConfig"));
    QCOMPARE(cfg[QStringLiteral("fields")].toObject(),
             (QJsonObject{{"rows", "4"}, {"scale", "3.0"}}));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

// make_scale() needs no argument and makes the kernel; nothing calls what it makes, but the test
// beside calls a copy of its own with the same parameters: that copy's calls are the cases.
void TestImportMade::uncalledFactoryKernelTakesATestCopysCalls()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("copied_in_test/scale_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* variant = find(r, "import.variant-calls");
    QVERIFY2(variant && variant->message.find("calls of scale_kernel_sim") != std::string::npos,
             qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("kernel")][QStringLiteral("made_by")].toString(),
             QStringLiteral("make_scale"));
    QCOMPARE(op[QStringLiteral("cases")].toArray().size(), 1);
    QVERIFY(readAll(out + QStringLiteral("/reference.py")).contains("return x * 1.5"));
    // The copy stays in the test file: the project is the kernel file.
    QVERIFY(!QFile::exists(out + QStringLiteral("/test_scale.py")));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

// The tests call the kernel with two configurations (a str field chooses the activation) and,
// in one test, another tile size that follows no shape: the cases are the first configuration's
// calls, the others are named and left out, and the reference is that configuration's golden.
void TestImportMade::callsInAnotherConfigurationAreNoCases()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("activation"));
    const auto r = import(data("activation_modes.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* other = find(r, "import.other-configuration");
    QVERIFY2(other && other->severity == Severity::Warning, qPrintable(describe(r)));
    QVERIFY2(other->message.find("2 recorded call(s)") != std::string::npos &&
                 other->message.find("test_double: the ActivationConfig field 'activation' is "
                                     "\"double\", not \"relu\"") != std::string::npos,
             other->message.c_str());
    const QJsonObject op = readOp(out);
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2); // not the call with 16-row tiles
    QCOMPARE(
        cases[1][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("shape")].toArray(),
        (QJsonArray{24, 32}));
    QCOMPARE(op[QStringLiteral("kernel")][QStringLiteral("arguments")][QStringLiteral("config")]
               [QStringLiteral("fields")][QStringLiteral("activation")]
                   .toString(),
             QStringLiteral("'relu'"));
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("clamp"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
    // The configuration decides what the cases check: the other one fails them.
    QVERIFY(editFile(out + QStringLiteral("/op.json"), "\"'relu'\"", "\"'double'\""));
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("FAIL")), qPrintable(output));
}

void TestImportMade::kernelsMadeInsideFunctions()
{
    auto listed = listJitKernels(data("made_in_tests.py").toStdString());
    QVERIFY(std::holds_alternative<std::vector<JitKernel>>(listed));
    const auto& kernels = std::get<std::vector<JitKernel>>(listed);
    QCOMPARE(kernels.size(), std::size_t(2));
    QCOMPARE(kernels[0].name, std::string("scale_kernel"));
    QCOMPARE(kernels[0].inside, std::string("make_scale_kernel"));
    QCOMPARE(kernels[1].name, std::string("add_kernel"));
    QCOMPARE(kernels[1].inside, std::string("test_add_defined_here"));
    QCOMPARE(kernels[1].line, 25);

    // A test that defines its kernel (with a tile size of its own) and calls it.
    QTemporaryDir dir;
    const QString add = dir.filePath(QStringLiteral("add"));
    auto r = import(data("made_in_tests.py"), add, "add_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QJsonObject op = readOp(add);
    QCOMPARE(
        op.value(QStringLiteral("kernel")).toObject().value(QStringLiteral("made_by")).toString(),
        QStringLiteral("test_add_defined_here"));
    QCOMPARE(op.value(QStringLiteral("cases")).toArray().size(), 1);
    auto [code, output] = verify(add);
    QVERIFY2(code == 0, qPrintable(output));

    // A factory called by a parametrized test: the first case's kernel, with its calls only.
    const QString scale = dir.filePath(QStringLiteral("scale"));
    r = import(data("made_in_tests.py"), scale, "scale_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    op = readOp(scale);
    QCOMPARE(
        op.value(QStringLiteral("kernel")).toObject().value(QStringLiteral("made_by")).toString(),
        QStringLiteral("test_scale[2.0]"));
    QCOMPARE(op.value(QStringLiteral("cases")).toArray().size(), 1);
    std::tie(code, output) = verify(scale);
    QVERIFY2(code == 0, qPrintable(output));

    // made_by decides which kernel runs: the other case's kernel triples, against a reference
    // that doubles.
    setMadeBy(scale, QStringLiteral("test_scale[triple]"));
    std::tie(code, output) = verify(scale);
    QVERIFY2(code != 0 && !output.contains(QStringLiteral("kernel.made-by")), qPrintable(output));
    setMadeBy(scale, QStringLiteral("test_scale[quadruple]"));
    std::tie(code, output) = verify(scale);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("no pytest case has the id 'quadruple' "
                                                         "(its cases: 2.0, triple)")),
             qPrintable(output));
    setMadeBy(scale, QStringLiteral("make_scale_kernel"));
    std::tie(code, output) = verify(scale);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("make_scale_kernel takes factor")),
             qPrintable(output));
}

void TestImportMade::kernelMadeWhereNothingBuildsIt()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("neg"));
    const auto r = import(data("made_unreached.py"), out);
    QVERIFY(!r.ok);
    const Diagnostic* d = find(r, "import.kernel");
    QVERIFY2(d, qPrintable(describe(r)));
    QCOMPARE(d->line, 7);
    QVERIFY2(d->message.find("made inside 'make_neg_kernel'") != std::string::npos,
             d->message.c_str());
    QVERIFY(!QFileInfo::exists(out));
    // Asked for by name while the file's code calls another kernel: the same news, not "the
    // file has no jit kernel named 'neg_kernel'".
    const QString both = dir.filePath(QStringLiteral("both.py"));
    QFile f(both);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(readAll(data("made_unreached.py")) +
            "\n\n@pypto.frontend.jit\n"
            "def copy_kernel(x: pypto.Tensor([8, 32], pypto.DT_FP32), y: pypto.Tensor([8, 32], "
            "pypto.DT_FP32)):\n"
            "    pypto.set_vec_tile_shapes(8, 32)\n"
            "    y[:] = pypto.add(x, 0.0)\n\n\n"
            "if __name__ == \"__main__\":\n"
            "    import torch\n\n"
            "    copy_kernel(torch.rand(8, 32), torch.empty(8, 32))\n");
    f.close();
    const auto named = import(both, out, "neg_kernel");
    d = find(named, "import.kernel");
    QVERIFY2(d && d->message.find("made inside 'make_neg_kernel'") != std::string::npos,
             qPrintable(describe(named)));
}

// A worker script's function that needs no argument and builds and calls the kernel, run by
// nothing but the script's command line: import runs it, and made_by names it.
void TestImportMade::kernelMadeByAFunctionNothingRuns()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("worker_script.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject kernel = readOp(out).value(QStringLiteral("kernel")).toObject();
    QCOMPARE(kernel.value(QStringLiteral("made_by")).toString(), QStringLiteral("pack_scale"));
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("x * 3.0"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(editFile(out + QStringLiteral("/worker_script.py"), "out[:] = x * 3.0",
                     "out[:] = x * 3.5"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
}

// A launcher that takes an argument (the run mode) and that only the file's main block calls:
// made_by names the block, which runs (with its own command line parsing) until the kernel call.
void TestImportMade::kernelMadeByTheMainBlock()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    const auto r = import(data("made_by_main.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QCOMPARE(readOp(out)
                 .value(QStringLiteral("kernel"))
                 .toObject()
                 .value(QStringLiteral("made_by"))
                 .toString(),
             QStringLiteral("__main__"));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));

    // The kernel the block builds is the one that runs: a kernel that triples fails.
    QFile kernel(out + QStringLiteral("/made_by_main.py"));
    QVERIFY(kernel.open(QIODevice::ReadOnly));
    QByteArray text = kernel.readAll();
    kernel.close();
    QVERIFY(kernel.open(QIODevice::WriteOnly | QIODevice::Truncate));
    kernel.write(QByteArray(text).replace("pypto.mul(x, 2.0)", "pypto.mul(x, 3.0)"));
    kernel.close();
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("FAIL")), qPrintable(output));

    // A main block that never reaches the kernel is named at the block.
    QVERIFY(kernel.open(QIODevice::WriteOnly | QIODevice::Truncate));
    kernel.write(QByteArray(text).replace("    run_double_demo(parser.parse_args().run_mode)",
                                          "    parser.parse_args()"));
    kernel.close();
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("__main__ ran to its end without calling "
                                                         "or returning a jit kernel named "
                                                         "'double_demo_kernel'")),
             qPrintable(output));
}

static void rewrite(const QString& path, const QByteArray& from, const QByteArray& to)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    QVERIFY2(text.contains(from), from.constData());
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.replace(from, to));
}

void TestImportMade::kernelMadeAgainForAnotherShape()
{
    // The main block builds the kernel twice, for 8 rows and then 24: the second kernel's call
    // is no case of the first, whose annotation says 8 rows.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("made_twice_by_main.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* left = find(r, "import.made-again");
    QVERIFY2(left && left->severity == Severity::Warning, qPrintable(describe(r)));
    const QJsonArray cases = readOp(out)[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QCOMPARE(cases[0][QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("shape")]
                 .toArray()
                 .first()
                 .toInt(),
             8);
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

// A kernel file of a package (scale_ops/common_scale.py) whose factory takes the device, name,
// shape, dtype, tiles and factor, called only by a test in a folder below that imports it through
// the package: made_by names the factory, made_with its arguments; the project keeps the package's
// modules at their paths, and the expected value the test computes inline, compared by the
// package's own cosine(), becomes the reference.
void TestImportMade::kernelOfAPackageMadeByAFactory()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("scale_ops/common_scale.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject kernel = readOp(out).value(QStringLiteral("kernel")).toObject();
    QCOMPARE(kernel.value(QStringLiteral("made_by")).toString(),
             QStringLiteral("make_scale_kernel"));
    const QJsonObject expectedWith{{QStringLiteral("device"), QStringLiteral("'device_a'")},
                                   {QStringLiteral("name"), QStringLiteral("'scale_001'")},
                                   // PyPTO's any-rank shape [...], which the factory gets again.
                                   {QStringLiteral("shape"), QJsonArray{QStringLiteral("...")}},
                                   {QStringLiteral("dtype"), QStringLiteral("float32")},
                                   {QStringLiteral("tiles"), QStringLiteral("[8, 32]")},
                                   {QStringLiteral("factor"), QStringLiteral("2.5")}};
    QCOMPARE(kernel.value(QStringLiteral("made_with")).toObject(), expectedWith);
    // cosine() returns the cosine similarity: op.json's cosine criterion, the ratio criterion
    // beside it; import's own by-value matching of the output is no exact comparison of the
    // file's (no rtol 0).
    const QJsonObject tolerance = readOp(out)[QStringLiteral("tolerance")].toObject();
    QCOMPARE(tolerance[QStringLiteral("criteria")].toArray(),
             (QJsonArray{QStringLiteral("cosine"), QStringLiteral("ratio")}));
    QVERIFY(!tolerance.contains(QStringLiteral("float32")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/common_scale.py")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/scale_ops/common.py")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/scale_ops/__init__.py")));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/scale_ops/device_a")));
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("x * 2.5"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));

    // made_with is what the factory gets: another factor fails the comparison.
    const QString op = out + QStringLiteral("/op.json");
    rewrite(op, "\"factor\": \"2.5\"", "\"factor\": \"3.0\"");
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("FAIL")), qPrintable(output));

    // An argument the factory does not take is named.
    rewrite(op, "\"factor\": \"3.0\"", "\"factor\": \"2.5\", \"speed\": \"1\"");
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("make_scale_kernel takes no parameter "
                                                         "named 'speed'")),
             qPrintable(output));
}

// A factory that rebinds its parameters before it makes the kernel (`rows = pypto.DYNAMIC`), called
// by a model script beside it: made_with holds the values it was called with, not the rebound
// ones, and the script's compare(**kwargs) is a comparison whose atol_abs/atol_rel are the
// tolerance.
void TestImportMade::factoryThatRebindsItsParameters()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("decay"));
    const auto r = import(data("rebinding_factory/decay_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    const QJsonObject kernel = op.value(QStringLiteral("kernel")).toObject();
    QCOMPARE(kernel.value(QStringLiteral("made_by")).toString(),
             QStringLiteral("make_decay_kernel"));
    const QJsonObject expectedWith{{QStringLiteral("rows"), QStringLiteral("16")},
                                   {QStringLiteral("cols"), QStringLiteral("32")},
                                   {QStringLiteral("rate"), QStringLiteral("0.75")}};
    QCOMPARE(kernel.value(QStringLiteral("made_with")).toObject(), expectedWith);
    const QJsonObject fp32 =
        op[QStringLiteral("tolerance")].toObject()[QStringLiteral("float32")].toObject();
    QCOMPARE(fp32[QStringLiteral("rtol")].toDouble(), 3e-3);
    QCOMPARE(fp32[QStringLiteral("atol")].toDouble(), 2e-4);
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
}

// A test that takes pytest fixtures: `device` from the conftest.py beside it (a generator),
// `factor` from the file (params: the first, 2.0, is made), tmp_path and monkeypatch. Import runs
// it, the project keeps the conftest, and verify makes the fixtures again to build the kernel; a
// test taking a fixture nothing defines is named.
void TestImportMade::testTakingPytestFixtures()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("with_fixtures/scale_with_fixtures.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* unmade = nullptr;
    for (const auto& d : r.diagnostics)
        if (d.message.find("test_on_two_cards needs card_pair, which no pytest fixture") !=
            std::string::npos)
            unmade = &d;
    QVERIFY2(unmade && unmade->line == 37, qPrintable(describe(r)));
    const QJsonObject kernel = readOp(out).value(QStringLiteral("kernel")).toObject();
    QCOMPARE(kernel.value(QStringLiteral("made_by")).toString(), QStringLiteral("test_scale"));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/conftest.py")));
    QVERIFY2(readAll(out + QStringLiteral("/reference.py")).contains("x * 2.0"),
             readAll(out + QStringLiteral("/reference.py")).constData());
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));

    // The fixture's value builds the kernel verify runs: another first param fails.
    QVERIFY(editFile(out + QStringLiteral("/scale_with_fixtures.py"), "params=[2.0, 4.0]",
                     "params=[4.0, 2.0]"));
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("FAIL")), qPrintable(output));

    // Without the conftest, verify names the fixture it lacks.
    QVERIFY(QFile::remove(out + QStringLiteral("/conftest.py")));
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("test_scale takes device, which nothing "
                                                         "gives")),
             qPrintable(output));
}

// Test functions that take a `device` no fixture makes, as a script whose main block calls one of
// them writes them: the others run with the value main passed (halve_kernel is launched by
// test_halve alone), and the one main ran is not run again (one case for double_kernel).
void TestImportMade::testArgumentsFromTheMainBlock()
{
    QTemporaryDir dir;
    const QString halved = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("tests_called_by_main.py"), halved, "halve_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(!describe(r).contains(QStringLiteral("needs device")), qPrintable(describe(r)));
    QCOMPARE(readOp(halved).value(QStringLiteral("cases")).toArray().size(), 1);
    auto [code, output] = verify(halved);
    QVERIFY2(code == 0, qPrintable(output));

    const QString doubled = dir.filePath(QStringLiteral("double"));
    const auto d = import(data("tests_called_by_main.py"), doubled, "double_kernel");
    QVERIFY2(d.ok, qPrintable(describe(d)));
    QCOMPARE(readOp(doubled).value(QStringLiteral("cases")).toArray().size(), 1);
}

// A kernel file of a package that imports a sibling relatively (`from .factors import FACTOR`):
// the project keeps it at its path in the package, with the package's modules, so the same import
// finds them; verify runs the project's copy.
void TestImportMade::kernelImportingItsPackageRelatively()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("relative_package/scale_ops/scale_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QCOMPARE(readOp(out)[QStringLiteral("kernel")][QStringLiteral("file")].toString(),
             QStringLiteral("scale_ops/scale_impl.py"));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/scale_ops/__init__.py")));
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/scale_ops/factors.py")));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/scale_impl.py")));
    auto [code, output] = verify(out);
    QVERIFY2(code == 0, qPrintable(output));
    QVERIFY(
        editFile(out + QStringLiteral("/scale_ops/factors.py"), "FACTOR = 2.5", "FACTOR = 3.0"));
    std::tie(code, output) = verify(out);
    QVERIFY2(code != 0 && output.contains(QStringLiteral("FAIL")), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestImportMade)
#include "tst_import_made.moc"
