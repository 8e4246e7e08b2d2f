// Import reading what a test expects, as PyPTO's tests, models and examples write it
// (tests/data/import_kernels): the reference it proposes verifies as imported; written tensors
// become outputs or mutated inputs by what the kernel does with what they held.
#include "import_test_support.h"

#include <QJsonArray>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

using namespace importtest;

class TestImportExpected : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceFromWhatTheTestExpects_data();
    void referenceFromWhatTheTestExpects();
    void outputFilledFirstInAGraphCapture();
    void numpyArraysOfAReshapedOutputAreCompared();
    void differenceInTwoStepsIsAComparison();
    void toleranceFinerThanTheDtypeIsSaid();
    void inPlaceUpdateIsTheOnlyResult();
    void callsThatFailSayWhyNoOutputIsKnown();
    void enumFieldIsNamed();
    void cloneNamedLikeAnOutputIsUpdated();
    void referenceUpdatesACloneItCompares();
    void nextStepKeepsTheInterpreter();
};

void TestImportExpected::referenceFromWhatTheTestExpects_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QStringList>("written");
    QTest::addColumn<double>("rtol"); // float32's rtol in op.json; < 0: not checked
    // `.T` over the tensor the kernel got as a format-cast view; assert_close's own defaults.
    QTest::newRow("transposed view")
        << "test_spelling.py"
        << "transposed_product"
        << QStringList{"return (torch.matmul(a.to(torch.float32).T, b.to(torch.float32)))"} << 1e-3;
    QTest::newRow("unary plus") << "test_spelling.py"
                                << "plus_one" << QStringList{"return (x + 1.0)"} << 1.3e-6;
    QTest::newRow("golden computed before the kernel runs")
        << "golden_first.py"
        << "" << QStringList{"result = _golden_scaled_rows(x, w)"} << -1.0;
    // The golden module's f-string messages and chained comparison, in TorchScript's spelling.
    QTest::newRow("stated golden of a module in a subfolder")
        << "stated_goldens/kernels.py"
        << "weighted_sum"
        << QStringList{"result = weighted_sum_golden(x, y, weight)",
                       "# weighted_sum_golden, from weighted_sum_golden.py line",
                       "x.shape == y.shape and y.shape == (x.shape[0], 16)",
                       "'shape mismatch: x={tuple(x.shape)} y={tuple(y.shape)}'"}
        << -1.0;
    QTest::newRow("stated expression of the test")
        << "stated_goldens/kernels.py"
        << "doubled" << QStringList{"return (x * 2.0)"} << -1.0;
    // The torch op taken from a table; an output made with torch.zeros that the kernel fills
    // with zeros (False) again; an exact comparison.
    QTest::newRow("exact comparison of a zeros output")
        << "compare_exact.py"
        << "less_kernel" << QStringList{"return (torch.lt(a, b))"} << -1.0;
    // torch.equal is an exact comparison too.
    QTest::newRow("torch.equal") << "compare_exact.py"
                                 << "nan_kernel" << QStringList{"return (torch.isnan(x.float()))"}
                                 << -1.0;
    // Both sides widened to int32 to compare: the reference gives the output its dtype rule's
    // dtype again (the inputs'), not a fixed int16.
    QTest::newRow("comparison of widened integers")
        << "compare_exact.py"
        << "max_kernel" << QStringList{"torch.maximum(a, b).to(torch.int32)", ".to(a.dtype)"}
        << -1.0;
    // One output in two dtypes, compared widened: cast back by the dtype rule.
    QTest::newRow("widened, two dtypes")
        << "widened_two_dtypes.py"
        << "" << QStringList{"return ((x * 0.5).to(torch.float32)).to(x.dtype)"} << -1.0;
    // torch.cat over the test's list of the kernel's inputs; the test's own name for the scalar
    // the kernel takes is the op's parameter.
    QTest::newRow("inputs in a list, a parameter by another name")
        << "inputs_in_a_list.py"
        << "" << QStringList{"return (torch.cat([a, b], dim=0) * factor)"} << 1.3e-6;
    // Part of a torch.zeros output written: the case starts it at zero; `functional` is F, the
    // test's config object's fields are their values.
    QTest::newRow("padded result")
        << "padded_result.py"
        << "" << QStringList{"return (F.pad(-x * 2.0 if False else x * 2.0, (0, 16)))"} << 1.3e-6;
    // One tensor the input of two kernels; module constants in the expected value.
    QTest::newRow("input of two kernels, first")
        << "shared_input.py"
        << "first_half_kernel" << QStringList{"return (b[:16 // 2] + 1.0)"} << 1e-3;
    QTest::newRow("input of two kernels, second")
        << "shared_input.py"
        << "second_half_kernel" << QStringList{"return (b[16 // 2:] + 2.0)"} << 1e-3;
    // The comparison at module level, in the file's main block.
    QTest::newRow("main block") << "main_block_expected.py"
                                << "" << QStringList{"return (x + 0.5)"} << 1e-3;
    // A golden's keyword arguments typed by their defaults, None as Optional.
    QTest::newRow("golden defaults")
        << "norm_defaults.py"
        << "" << QStringList{"gamma: Optional[Tensor]=None, eps: float=1e-06, scale: float=1.0"}
        << 1e-5;
    // A function that makes the output and calls the kernel is no golden.
    QTest::newRow("launcher is no golden")
        << "launcher.py"
        << "" << QStringList{"return (torch.softmax(x, dim=-1))"} << -1.0;
}

void TestImportExpected::referenceFromWhatTheTestExpects()
{
    QFETCH(QString, file);
    QFETCH(QString, kernel);
    QFETCH(QStringList, written);
    QFETCH(double, rtol);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("op"));
    const auto r = import(data(file.toUtf8().constData()), out, kernel.toStdString());
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    for (const QString& text : written)
        QVERIFY2(reference.contains(text.toUtf8()), reference.constData());
    if (rtol >= 0)
        QCOMPARE(
            readOp(
                out)[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                .toDouble(),
            rtol);
    if (file == QStringLiteral("padded_result.py"))
        QCOMPARE(readOp(out)[QStringLiteral("outputs")][0][QStringLiteral("init")].toInt(-1), 0);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportExpected::outputFilledFirstInAGraphCapture()
{
    // torch.rand-filled, written whatever it held: an output. Compared as flattened lists.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("project"));
    const auto r = import(data("graph_capture.py"), out, "project");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonArray outputs = readOp(out)[QStringLiteral("outputs")].toArray();
    QCOMPARE(outputs.size(), 1);
    QCOMPARE(outputs[0][QStringLiteral("name")].toString(), QStringLiteral("logits"));
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("return (torch.matmul(x, weight.t()))"), reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportExpected::numpyArraysOfAReshapedOutputAreCompared()
{
    // `halve(x).numpy()` shares the memory of the [rows, cols] output in the input's 3-d shape:
    // the assert_allclose is the op's comparison, with its tolerance and its expected values.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("halve"));
    const auto r = import(data("numpy_compare_of_reshape.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    QCOMPARE(op[QStringLiteral("tolerance")][QStringLiteral("float32")][QStringLiteral("rtol")]
                 .toDouble(),
             1e-4);
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 1);
    QVERIFY2(cases[0].toObject().contains(QStringLiteral("expected")),
             QJsonDocument(cases[0].toObject()).toJson().constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportExpected::differenceInTwoStepsIsAComparison()
{
    // `d = (actual.float() - expected.float()).abs()`, `mx = d.max().item()`, `mx <= 0.01`: a
    // float copy of the output in the input's shape, compared with an atol of 0.01 and no rtol.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("affine"));
    const auto r = import(data("difference_in_two_steps.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    const QJsonObject tolerance =
        op[QStringLiteral("tolerance")][QStringLiteral("float16")].toObject();
    QCOMPARE(tolerance[QStringLiteral("atol")].toDouble(), 0.01);
    QCOMPARE(tolerance[QStringLiteral("rtol")].toDouble(), 0.0);
    const QJsonArray cases = op[QStringLiteral("cases")].toArray();
    QCOMPARE(cases.size(), 2);
    for (const auto& c : cases)
        QVERIFY2(c.toObject().contains(QStringLiteral("expected")),
                 QJsonDocument(c.toObject()).toJson().constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

void TestImportExpected::toleranceFinerThanTheDtypeIsSaid()
{
    // bf16 at rtol 3e-3, atol 3e-3: one rounding step (2^-7 of the value) fails above 0.62. The
    // tolerance stays the file's; the warning says why a single element may fail.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("double"));
    const auto r = import(data("bf16_fine_tolerance.py"), out);
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const Diagnostic* finer = find(r, "import.tolerance-finer-than-dtype");
    QVERIFY2(finer && finer->severity == Severity::Warning, qPrintable(describe(r)));
    QVERIFY2(finer->message.find("(2^-7 of the value) for values above 0.62") != std::string::npos,
             finer->message.c_str());
    QCOMPARE(
        readOp(out)[QStringLiteral("tolerance")][QStringLiteral("bfloat16")][QStringLiteral("rtol")]
            .toDouble(),
        0.003);
    // A float32 comparison at the file's 1e-4 is no such case.
    const auto r2 =
        import(data("numpy_compare_of_reshape.py"), dir.filePath(QStringLiteral("halve")));
    QVERIFY2(r2.ok && !find(r2, "import.tolerance-finer-than-dtype"), qPrintable(describe(r2)));
}

void TestImportExpected::inPlaceUpdateIsTheOnlyResult()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("accumulate"));
    const auto r = import(data("graph_capture.py"), out, "accumulate");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const QJsonArray inputs = readOp(out)[QStringLiteral("inputs")].toArray();
    QCOMPARE(inputs.size(), 2);
    QCOMPARE(inputs[1][QStringLiteral("name")].toString(), QStringLiteral("total"));
    QVERIFY(inputs[1][QStringLiteral("mutated")].toBool());
    // The updated input is the op's only result: no output of its own, and the reference writes
    // it from what the test expected, computed before the call from what it held then.
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY(readOp(out)[QStringLiteral("outputs")].toArray().isEmpty());
    const QByteArray reference = readAll(out + QStringLiteral("/reference.py"));
    QVERIFY2(reference.contains("-> None:") && reference.contains("total.copy_((total + x))"),
             reference.constData());
    // The test captured by hand and asserted that the stream was capturing: it ran through.
    QVERIFY2(!find(r, "import.host-code"), qPrintable(describe(r)));
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    // A kernel that subtracts instead fails.
    const QString kernel = out + QStringLiteral("/graph_capture.py");
    QByteArray source = readAll(kernel);
    QVERIFY(source.contains("pypto.add(total, x)"));
    source.replace("pypto.add(total, x)", "pypto.sub(total, x)");
    QFile file(kernel);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(source);
    file.close();
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
}

// A cache passed as a clone of its old contents and named like an output: the kernel writes some
// rows, the others keep what they held, so it is an input the kernel updates, and verify compares
// the whole of it.
void TestImportExpected::cloneNamedLikeAnOutputIsUpdated()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cache"));
    const auto r = import(data("cache_rows_out.py"), out, "cache_rows_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    const QJsonObject op = readOp(out);
    const QJsonArray inputs = op[QStringLiteral("inputs")].toArray();
    QCOMPARE(inputs.size(), 3);
    QCOMPARE(inputs[2][QStringLiteral("name")].toString(), QStringLiteral("cache_out"));
    QVERIFY(inputs[2][QStringLiteral("mutated")].toBool());
    QCOMPARE(op[QStringLiteral("outputs")].toArray().size(), 1);
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
}

// The test compares an accumulator it passed as a clone with an expression over the original:
// the original is that input as it was, and the reference updates it as the kernel does, after
// computing the outputs. A reference that updates it otherwise fails verify.
void TestImportExpected::referenceUpdatesACloneItCompares()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("accumulate"));
    const auto r = import(data("accumulate_clone.py"), out, "accumulate_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QCOMPARE(countErrors(r.diagnostics), 0);
    QVERIFY2(!find(r, "import.reference"), qPrintable(describe(r)));
    const QString referencePath = out + QStringLiteral("/reference.py");
    const QByteArray reference = readAll(referencePath);
    QVERIFY2(reference.contains("    results = (x * 2)\n    acc_out.copy_((acc_out + x))\n"
                                "    return results\n"),
             reference.constData());
    const auto [code, text] = verify(out);
    QVERIFY2(code == 0, qPrintable(text));
    QFile file(referencePath);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QByteArray(reference).replace("acc_out + x", "acc_out - x"));
    file.close();
    const auto [failed, failure] = verify(out);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL  test_accumulate/acc_out")),
             qPrintable(failure));
}

// `ptowb-cli import --python PY` records in PY: the verify it suggests runs there too.
void TestImportExpected::nextStepKeepsTheInterpreter()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("softmax"));
    QProcess p;
    p.start(QStringLiteral(PTOWB_CLI),
            {QStringLiteral("import"), data("launcher.py"), QStringLiteral("--out"), out,
             QStringLiteral("--python"), QStringLiteral("/usr/bin/python3")});
    QVERIFY(p.waitForFinished(300000));
    const QString printed = QString::fromUtf8(p.readAllStandardOutput());
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(printed.contains(QStringLiteral("next: ptowb-cli verify ") + out +
                              QStringLiteral(" --against sim --python /usr/bin/python3\n")),
             qPrintable(printed));
}

// Every call stopped in the simulator before writing: the missing outputs are blamed on that,
// with the simulator's reason, not on the kernel.
void TestImportExpected::callsThatFailSayWhyNoOutputIsKnown()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("total"));
    const auto r = import(data("fails_in_simulator.py"), out, "running_total");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    QVERIFY2(find(r, "import.kernel-failed"), qPrintable(describe(r)));
    const Diagnostic* d = find(r, "import.no-output");
    QVERIFY2(d, qPrintable(describe(r)));
    QVERIFY2(d->message.find("every recorded call failed in the simulator") != std::string::npos &&
                 d->message.find("cumsum") != std::string::npos,
             d->message.c_str());
}

// A config field holding a pypto enum member: op.json cannot write it, so import names the
// member and how to keep it (the field's default), at the config in op.json.
void TestImportExpected::enumFieldIsNamed()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("relu"));
    const auto r = import(data("enum_field.py"), out, "add_kernel");
    QVERIFY2(r.ok, qPrintable(describe(r)));
    const Diagnostic* d = find(r, "import.argument");
    QVERIFY2(d, qPrintable(describe(r)));
    QVERIFY2(d->message.find("holds the enum member ReLuType.RELU") != std::string::npos &&
                 d->message.find("default in Config") != std::string::npos,
             d->message.c_str());
}

QTEST_GUILESS_MAIN(TestImportExpected)
#include "tst_import_expected.moc"
