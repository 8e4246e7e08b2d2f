// Import when no reference can be inferred: what the file's test compared each output with
// becomes the case's expected values, so verify checks the kernel as the test did; and the
// scripts and tests found beside a kernel file and in the folders above it.
#include "import_test_support.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

using namespace ptowb;
using namespace importtest;

class TestImportRecorded : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expectedChangedInPlaceIsRecordedNotGuessed();
    void scriptBesideComparesWithItsOwnHelper();
    void testInTheFolderAbove();
    void kernelReadsItsConfigFromItsTest();
    void kernelReachedThroughAHelperOfTheTests();
    void testFileThatCallsTheKernelRunsFirst();
    void uncalledVariantTakesTheCallsOfItsTwin();
    void testThatSpawnsAChildProcess();
    void testWithEveryCaseSkipped();
    void comparisonAllowingAShareOfMismatches();
    void comparisonImportedInsideTheTestFromTheRepository();
    void testStillRunningWhenTimeIsUp();
    void stateTheTestSetsBeforeTheCall();
    void inputMadeEmptyThenFilledByRows();
    void outputCopiedFromACacheUpdatedInPlace();
    void configClassOfAModuleTheKernelDoesNotName();
    void passVerificationToleranceAndShare();
    void resultsTheTestDoesNotCheck();
    void secondCallOfTheSameShapesCompared();
    void outputComparedThroughAReshape();
    void goldenOfTheBranchThatRan();
};

void TestImportRecorded::expectedChangedInPlaceIsRecordedNotGuessed()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("add_head"));
    const auto r = import(data("head_rows_inplace.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    // `expected = torch.add(x, y)` then `expected[0:2, ...] = ... + 1`: the first line alone is
    // not what the test compares with, so the reference is left to write, at its line.
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(!reference.contains("torch.add(x, y)"), reference.constData());
    QVERIFY2(reference.contains("raise RuntimeError(\"TODO"), reference.constData());
    const Diagnostic* todo = find(r, "import.reference");
    QVERIFY2(todo, qPrintable(describe(r)));
    QCOMPARE(todo->severity, Severity::Warning);
    QCOMPARE(countErrors(r.diagnostics), 0);
    // What could be inferred still is: the tolerance of the file's assert_allclose.
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("atol")]
                 .toDouble(),
             3e-3);
    // The case compares with the value the test compared with, over the inputs the test made
    // (torch.rand: kept as they were, not made again).
    const QJsonObject c = op[QStringLiteral("cases")].toArray()[0].toObject();
    const QString expected = c[QStringLiteral("expected")][QStringLiteral("out")].toString();
    QVERIFY2(expected.startsWith(QStringLiteral("file:cases/")), qPrintable(expected));
    QVERIFY(QFile::exists(out + QLatin1Char('/') + expected.mid(5)));
    for (const char* input : {"x", "y"})
        QVERIFY(c[QStringLiteral("inputs")][QLatin1String(input)][QStringLiteral("fill")]
                    .toString()
                    .startsWith(QStringLiteral("file:cases/")));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    // The recorded values decide: a kernel that adds val + 1 to the head rows fails.
    QVERIFY(editFile(out + QStringLiteral("/head_rows_inplace.py"), "row + val", "row + val + 1"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
    // A package's CPU implementation is the reference: export refuses until it is written.
    const auto [refused, why] = cli({QStringLiteral("export"), out});
    QVERIFY2(refused != 0 && why.contains(QStringLiteral("reference.py is still to be written")),
             qPrintable(why));
    // A truncated expected file is the case's error, named as op.json's.
    const QString expectedFile = out + QLatin1Char('/') + expected.mid(5);
    const QByteArray whole = readAll(expectedFile);
    QFile truncated(expectedFile);
    QVERIFY(truncated.open(QIODevice::WriteOnly | QIODevice::Truncate));
    truncated.write(whole.left(whole.size() / 2));
    truncated.close();
    const auto [broken, message] = verify(out);
    QVERIFY2(broken != 0 && message.contains(QStringLiteral("op.json's expected values of case")),
             qPrintable(message));
}

void TestImportRecorded::scriptBesideComparesWithItsOwnHelper()
{
    // run_scale_shift.py (no test_ name, a main block) imports the kernel file, makes inputs and
    // a NumPy golden together, and checks `out.cpu().float()` with its own compare(t, t_ref,
    // name, atol, rtol), which asserts inside and returns nothing.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale_shift"));
    const auto r = import(data("prep_helper/scale_shift_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(std::find(r.inferred.begin(), r.inferred.end(),
                       "calls recorded by running run_scale_shift.py, which imports the kernel "
                       "file") != r.inferred.end(),
             qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    // The helper's own tolerances, by their parameter names.
    const QJsonObject fp16 = op[QStringLiteral("tolerance")][QStringLiteral("float16")].toObject();
    QCOMPARE(fp16[QStringLiteral("atol")].toDouble(), 1e-2);
    QCOMPARE(fp16[QStringLiteral("rtol")].toDouble(), 1e-2);
    // torch.empty(...).uniform_(...) is an input with values, kept as the script made it.
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    for (const auto& c : cases) {
        QVERIFY(c[QStringLiteral("inputs")][QStringLiteral("x")][QStringLiteral("fill")]
                    .toString()
                    .startsWith(QStringLiteral("file:")));
        QVERIFY(c[QStringLiteral("expected")][QStringLiteral("out")].toString().startsWith(
            QStringLiteral("file:")));
    }
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(
        editFile(out + QStringLiteral("/scale_shift_impl.py"), "x * 3.0 - 1.0", "x * 3.0 - 0.5"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
}

void TestImportRecorded::kernelReadsItsConfigFromItsTest()
{
    // offset_impl.py imports OFFSET from test_offset_config.py, the test that calls it: the
    // project holds the test file too, or the kernel cannot be imported there.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("offset"));
    const auto r = import(data("config_in_test/offset_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY(QFileInfo::exists(out + QStringLiteral("/test_offset_config.py")));
    auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    // No bytecode is left beside the files, and an edit of the same length with the same time
    // (as one saved within a second of the last) runs as edited: Python would trust a .pyc.
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/__pycache__")));
    const QString config = out + QStringLiteral("/test_offset_config.py");
    const QDateTime saved = QFileInfo(config).lastModified();
    QVERIFY(editFile(config, "OFFSET = 1.5", "OFFSET = 2.5"));
    {
        QFile edited(config);
        QVERIFY(edited.open(QIODevice::ReadWrite));
        QVERIFY(edited.setFileTime(saved, QFileDevice::FileModificationTime));
    }
    std::tie(code, text) = verify(out);
    QVERIFY2(code != 0 && text.contains(QStringLiteral("FAIL")), qPrintable(text));
}

void TestImportRecorded::testInTheFolderAbove()
{
    // _ops/double_impl.py is in a plain folder; test_double.py above imports `_ops.double_impl`.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    const auto r = import(data("prep_helper/_ops/double_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    // `double_kernel` gives no op named `double`, a C++ keyword.
    QCOMPARE(readOp(out)[QStringLiteral("name")].toString(), QStringLiteral("double_op"));
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (x * 2)"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportRecorded::kernelReachedThroughAHelperOfTheTests()
{
    // The test beside shift_impl.py calls shift_kernel only with a flag that a function of no
    // arguments passes (no test_ name, skipped under pytest): import runs that function.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("shift"));
    const auto r = import(data("flag_picked/shift_impl.py"), out, "shift_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonArray cases = readOp(out)[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QCOMPARE(cases[0][QStringLiteral("name")].toString(), QStringLiteral("test_shift_te_shift"));
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (x + 1.5)"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportRecorded::testFileThatCallsTheKernelRunsFirst()
{
    // Two test files import tile_impl.py: test_config_user.py only its TileConfig (its test fails
    // when run), test_tiles.py calls halve_kernel. The caller runs first and records the kernel,
    // so the other file is never run (with names alone, test_config_user.py came first).
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("named_caller/tile_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(!find(r, "import.host-code"), qPrintable(describe(r)));
    QVERIFY(std::find(r.inferred.begin(), r.inferred.end(),
                      "calls recorded by running test_tiles.py, which imports the kernel file") !=
            r.inferred.end());
    QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 1);
}

void TestImportRecorded::uncalledVariantTakesTheCallsOfItsTwin()
{
    // No code calls halve_kernel_wide, quarter_kernel or halve_kernel_any_rows; halve_kernel,
    // with the same parameters, is called and compared. Its call is their case and its
    // comparison their reference: the variants verify (the one whose annotation differs but
    // accepts the call too), the kernel that computes something else fails.
    QTemporaryDir dir;
    for (const char* kernel : {"halve_kernel_wide", "quarter_kernel", "halve_kernel_any_rows"}) {
        const QString out = dir.filePath(QString::fromLatin1(kernel));
        const auto r = import(data("variant_uncalled.py"), out, kernel);
        QVERIFY2(r.ok, qPrintable(describe(r)));
        QCOMPARE(countErrors(r.diagnostics), 0);
        const Diagnostic* variant = find(r, "import.variant-calls");
        QVERIFY2(variant, qPrintable(describe(r)));
        QVERIFY2(variant->message.find("the calls of halve_kernel,") != std::string::npos,
                 variant->message.c_str());
        QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 1);
        const auto [code, text] = verify(out);
        QVERIFY2((code == 0) == (std::string(kernel) != "quarter_kernel"), qPrintable(text));
    }
    // The kernel that was called keeps its own calls.
    const QString own = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("variant_uncalled.py"), own, "halve_kernel");
    QVERIFY2(r.ok && !find(r, "import.variant-calls"), qPrintable(describe(r)));
    // A kernel for float16 does not take float32 calls: no call of it is recorded, and it says so.
    const QString fp16 = dir.filePath(QStringLiteral("halve_fp16"));
    const auto rejected = import(data("variant_uncalled.py"), fp16, "halve_kernel_fp16");
    QVERIFY2(!find(rejected, "import.variant-calls") && find(rejected, "import.no-call"),
             qPrintable(describe(rejected)));
}

void TestImportRecorded::testThatSpawnsAChildProcess()
{
    // The test starts a "spawn" child, which runs the worker's start script again as
    // __mp_main__: that must not start a worker (it failed, the child exited 1 and the test's
    // assertion stopped it before its kernel call).
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    const auto r = import(data("spawn_child/double_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QVERIFY2(!find(r, "import.host-code"), qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 1);
}

void TestImportRecorded::testWithEveryCaseSkipped()
{
    // Both cases of the only test are marked skip: import runs them, as nothing else calls the
    // kernel (a skipped case beside cases that run stays out: scale_ops' case 002).
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("negate"));
    const auto r = import(data("all_skipped.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QCOMPARE(readOp(out)[QStringLiteral("cases")].toArray().size(), 2);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (-x)"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportRecorded::comparisonAllowingAShareOfMismatches()
{
    // test_halve.py's compare(..., max_error_ratio=0.05) passes with one element of 128 off its
    // golden; op.json's ratio criterion lets verify pass the same, and no more.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("share_of_mismatches/halve_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject tolerance = readOp(out)[QStringLiteral("tolerance")].toObject();
    QCOMPARE(tolerance[QStringLiteral("criteria")].toArray(), QJsonArray{QStringLiteral("ratio")});
    QCOMPARE(tolerance[QStringLiteral("max_error_ratio")].toDouble(), 0.05);
    QCOMPARE(tolerance[QStringLiteral("float32")][QStringLiteral("atol")].toDouble(), 1e-5);
    // Every element off is more than the share.
    verifyPassesThenFailsAfter(out + QStringLiteral("/halve_impl.py"), "pypto.mul(x, 0.5)",
                               "pypto.mul(x, 0.625)");
}

void TestImportRecorded::comparisonImportedInsideTheTestFromTheRepository()
{
    // test_halve.py imports `checks.compare` in its body, from the folder above that holds a
    // conftest.py (pytest puts it on sys.path): import finds it there, and its comparison gives
    // the tolerance and the expected values, as a helper beside the kernel would. test_third.py
    // imports the module whole (`import checks.compare as checking`) and calls
    // `checking.compare(...)`.
    const struct
    {
        const char *kernel, *from, *to;
    } kernels[] = {{"halve", "pypto.mul(x, 0.5)", "pypto.mul(x, 0.625)"},
                   {"third", "pypto.mul(x, 0.25)", "pypto.mul(x, 0.375)"}};
    for (const auto& k : kernels) {
        QTemporaryDir dir;
        const QString name = QString::fromLatin1(k.kernel);
        const QString out = dir.filePath(name);
        const auto r = import(
            data(qPrintable(QStringLiteral("compare_from_root/ops/%1/%1_impl.py").arg(name))), out);
        QVERIFY2(r.ok, qPrintable(describe(r)));
        QCOMPARE(countErrors(r.diagnostics), 0);
        QVERIFY2(!describe(r).contains(QStringLiteral("No module named")), qPrintable(describe(r)));
        const QJsonObject tolerance = readOp(out)[QStringLiteral("tolerance")].toObject();
        QCOMPARE(tolerance[QStringLiteral("max_error_ratio")].toDouble(), 0.01);
        QCOMPARE(tolerance[QStringLiteral("float32")][QStringLiteral("rtol")].toDouble(), 1e-3);
        verifyPassesThenFailsAfter(out + QStringLiteral("/%1_impl.py").arg(name), k.from, k.to);
    }
}

void TestImportRecorded::testStillRunningWhenTimeIsUp()
{
    // test_endless never returns (and swallows Exception): import stops it when its time is up,
    // says so at the line it was running, leaves test_after out, and proposes the project from
    // test_quick's call.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    // Were it not stopped, the worker would be ended at the limit + 60 s and nothing proposed.
    const auto r = import(data("slow_second_test.py"), out, {}, 15);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* stopped = nullptr;
    for (const auto& d : r.diagnostics)
        if (d.message.find("test_endless: stopped, import's time (15 s) was up") !=
            std::string::npos)
            stopped = &d;
    QVERIFY2(stopped && stopped->line >= 31 && stopped->line <= 34, qPrintable(describe(r)));
    // The tests after it are named once, as not run.
    QVERIFY2(describe(r).contains(QStringLiteral("import: not run, import's time (15 s) was up: "
                                                 "test_after (--time-limit gives more)")),
             qPrintable(describe(r)));
    const QJsonArray cases = readOp(out)[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QCOMPARE(cases[0].toObject()[QStringLiteral("name")].toString(), QStringLiteral("test_quick"));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportRecorded::stateTheTestSetsBeforeTheCall()
{
    // test_scale sets Scale.factor = 3.0 and then calls the kernel, which reads it. The project
    // runs the file as written (factor 1.0): import says so at the call, and verify names the
    // factor between what the kernel computes and what the test expected.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale"));
    const auto r = import(data("class_state.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const Diagnostic* state = nullptr;
    for (const auto& d : r.diagnostics)
        if (d.message.find("test_scale: set Scale.factor = 3.0 (the file has 1.0) before calling "
                           "scale_kernel, which reads it") != std::string::npos)
            state = &d;
    QVERIFY2(state && state->line == 24, qPrintable(describe(r)));
    const auto [code, text] = verify(out);
    QVERIFY2(code != 0 && text.contains(QStringLiteral("0.333 × expected")), qPrintable(text));
}

void TestImportRecorded::inputMadeEmptyThenFilledByRows()
{
    // row_max comes from torch.empty and is filled by `row_max[row, :] = ...` before the call:
    // the kernel reads it, so it is an input with the values the test gave it, not an output
    // (whose buffer starts at NaN in verify).
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("rescale"));
    const auto r = import(data("filled_piecewise.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(namesIn(op, "inputs"), (QStringList{QStringLiteral("x"), QStringLiteral("row_max")}));
    QCOMPARE(namesIn(op, "outputs"), QStringList{QStringLiteral("out")});
    const QJsonObject c = op[QStringLiteral("cases")].toArray()[0].toObject();
    QVERIFY(c[QStringLiteral("inputs")][QStringLiteral("row_max")][QStringLiteral("fill")]
                .toString()
                .startsWith(QStringLiteral("file:cases/")));
    verifyPassesThenFailsAfter(out + QStringLiteral("/filled_piecewise.py"),
                               "pypto.sub(x, row_max)", "pypto.add(x, row_max)");
}

void TestImportRecorded::outputCopiedFromACacheUpdatedInPlace()
{
    // The kernel scatters into its cache input in place and copies the cache out after each tile;
    // the test starts cache_out as a copy of the cache. Poisoned together, cache_out's result
    // changes with the cache's contents: each is then tried alone, and cache_out, written over
    // whatever it held, is the output, the cache an input the kernel updates.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cache_update"));
    const auto r = import(data("cache_copied_out.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(namesIn(op, "inputs"), (QStringList{QStringLiteral("rows"), QStringLiteral("index"),
                                                 QStringLiteral("cache")}));
    QCOMPARE(namesIn(op, "inputs", "mutated"), QStringList{QStringLiteral("cache")});
    QCOMPARE(namesIn(op, "outputs"), QStringList{QStringLiteral("cache_out")});
    verifyPassesThenFailsAfter(out + QStringLiteral("/cache_copied_out.py"), "pypto.view(rows,",
                               "pypto.view(pypto.mul(rows, 2.0),");
}

void TestImportRecorded::configClassOfAModuleTheKernelDoesNotName()
{
    // scale_rows_impl.py imports a helper from tiles.py, where the test's config class lives; the
    // kernel file binds neither the class nor the module. kernel.arguments names it through the
    // module the kernel file loaded, and verify builds it there.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("scale_rows"));
    const auto r = import(data("config_unbound/scale_rows_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject tiles =
        readOp(out)[QStringLiteral("kernel")][QStringLiteral("arguments")][QStringLiteral("tiles")]
            .toObject();
    QCOMPARE(tiles[QStringLiteral("class")].toString(), QStringLiteral("tiles.RowTiles"));
    QCOMPARE(tiles[QStringLiteral("fields")][QStringLiteral("factor")].toString(),
             QStringLiteral("3.0"));
    verifyPassesThenFailsAfter(out + QStringLiteral("/scale_rows_impl.py"), "tiles.factor)",
                               "tiles.factor + 1.0)");
}

void TestImportRecorded::passVerificationToleranceAndShare()
{
    // Goldens given to pypto.set_verify_golden_data are judged as PyPTO's pass verification
    // judges them (op.json's pass_verify criterion), with its error tolerance: PyPTO's default
    // [1e-3, 1e-3], or the kernel's verify_options.
    const struct
    {
        const char* kernel;
        double rtol, atol;
    } kernels[] = {{"weighted_sum", 1e-3, 1e-3}, {"doubled", 0.01, 0.002}};
    for (const auto& k : kernels) {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("op"));
        const auto r = import(data("stated_goldens/kernels.py"), out, k.kernel);
        QVERIFY2(r.ok, qPrintable(describe(r)));
        const QJsonObject tolerance = readOp(out)[QStringLiteral("tolerance")].toObject();
        QCOMPARE(tolerance[QStringLiteral("float32")][QStringLiteral("rtol")].toDouble(), k.rtol);
        QCOMPARE(tolerance[QStringLiteral("float32")][QStringLiteral("atol")].toDouble(), k.atol);
        QCOMPARE(tolerance[QStringLiteral("criteria")].toArray(),
                 QJsonArray{QStringLiteral("pass_verify")});
        QVERIFY(!tolerance.contains(QStringLiteral("max_error_ratio")));
        const auto [code, text] = verify(out);
        QVERIFY2(code == 0 && text.contains(QStringLiteral("pass_verify(rtol=")), qPrintable(text));
    }
}

void TestImportRecorded::resultsTheTestDoesNotCheck()
{
    // The test compares `result` only: the input the kernel changes in place and the scratch
    // output are null in the case's "expected", named in a warning, and skipped by verify.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("accumulate"));
    const auto r = import(data("partly_checked.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const Diagnostic* unchecked = find(r, "import.result-unchecked");
    QVERIFY2(unchecked && unchecked->severity == Severity::Warning, qPrintable(describe(r)));
    const QJsonObject op = readOp(out);
    QVERIFY(op[QStringLiteral("inputs")].toArray()[0][QStringLiteral("mutated")].toBool());
    const QJsonObject expected =
        op[QStringLiteral("cases")].toArray()[0][QStringLiteral("expected")].toObject();
    QVERIFY(expected[QStringLiteral("result")].toString().startsWith(QStringLiteral("file:")));
    QVERIFY(expected[QStringLiteral("a")].isNull());
    QVERIFY(expected[QStringLiteral("scratch")].isNull());
    const QString report = dir.filePath(QStringLiteral("report.json"));
    const QString junit = dir.filePath(QStringLiteral("report.xml"));
    const auto [code, text] =
        cli({QStringLiteral("verify"), out, QStringLiteral("--against"), QStringLiteral("sim"),
             QStringLiteral("--json"), report, QStringLiteral("--junit"), junit});
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("PASS  test_accumulate/result")), qPrintable(text));
    const QJsonObject json = QJsonDocument::fromJson(readAll(report)).object();
    const QJsonObject reported = json[QStringLiteral("cases")].toArray()[0].toObject();
    QCOMPARE(reported[QStringLiteral("outputs")].toObject().keys(), QStringList{"result"});
    QCOMPARE(reported[QStringLiteral("unchecked")].toArray().size(), 2);
    const QByteArray xml = readAll(junit);
    QVERIFY2(xml.contains("skipped=\"2\"") && xml.contains("<skipped"), xml.constData());
    QVERIFY2(text.contains(QStringLiteral("SKIP  test_accumulate/a")) &&
                 text.contains(QStringLiteral("SKIP  test_accumulate/scratch")),
             qPrintable(text));
    // What the test checks still decides.
    QVERIFY(editFile(out + QStringLiteral("/partly_checked.py"), "result[:] = a + scratch",
                     "result[:] = a + scratch + 1"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL  test_accumulate/result")),
             qPrintable(failure));
}

void TestImportRecorded::secondCallOfTheSameShapesCompared()
{
    // Two calls of one signature; the test compares the second's output only: that call is the
    // case, with its own inputs and the value the test compared with.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("add"));
    const auto r = import(data("second_call_compared.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(
        op[QStringLiteral("tolerance")][QStringLiteral("int32")][QStringLiteral("rtol")].toDouble(),
        5e-3);
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QVERIFY(cases[0][QStringLiteral("expected")][QStringLiteral("c")].toString().startsWith(
        QStringLiteral("file:")));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(editFile(out + QStringLiteral("/second_call_compared.py"), "c.move(pypto.add(a, b))",
                     "c.move(pypto.add(a, pypto.add(b, 1)))"));
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
}

void TestImportRecorded::outputComparedThroughAReshape()
{
    // The wrapper passes the kernel a [tokens * heads, dim] output and returns it reshaped to
    // [tokens, heads, dim], which the test compares with its golden: the same memory, so the
    // comparison is the output's, with its tolerance and expected values.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("heads"));
    const auto r = import(data("reshaped_output/heads_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject tolerance = readOp(out)[QStringLiteral("tolerance")].toObject();
    QCOMPARE(tolerance[QStringLiteral("float32")][QStringLiteral("rtol")].toDouble(), 1e-5);
    verifyPassesThenFailsAfter(out + QStringLiteral("/heads_impl.py"), "pypto.mul(x, 0.5)",
                               "pypto.mul(x, 0.625)");
}

void TestImportRecorded::goldenOfTheBranchThatRan()
{
    // The golden is assigned in two branches; the last in the text (`x.T` for transposed
    // operands) did not run, and torch refuses it over the call's values: the reference is the
    // branch that ran.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("rows"));
    const auto r = import(data("branch_that_ran/rows_impl.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("torch.matmul(x, w)"), reference.constData());
    verifyPassesThenFailsAfter(out + QStringLiteral("/rows_impl.py"),
                               "pypto.matmul(x, w, pypto.DT_FP32)",
                               "pypto.mul(pypto.matmul(x, w, pypto.DT_FP32), 2.0)");
}

QTEST_GUILESS_MAIN(TestImportRecorded)
#include "tst_import_recorded.moc"
