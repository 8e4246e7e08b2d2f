// The op description: loading the sample projects, broken fixtures with exact positions,
// inference, parameters, fills and identifiers.
#include "rules/rule_builtins.h"
#include "spec/command_line_values.h"
#include "spec/fill_spec.h"
#include "spec/identifiers.h"
#include "spec/inference.h"
#include "spec/op_json_vocabulary.h"
#include "spec/op_spec_loader.h"
#include "tensor/compare.h"

#include <QDir>
#include <QFile>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace ptowb;

namespace {

QString samplesDir()
{
    return QStringLiteral(PTOWB_SOURCE_DIR "/projects");
}

std::string readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

SpecLoadResult loadSample(const char* name)
{
    return loadOpSpecFile((samplesDir() + '/' + name + "/op.json").toStdString());
}

} // namespace

class TestSpec : public QObject
{
    Q_OBJECT

private slots:
    void samplesValidateClean_data()
    {
        QTest::addColumn<QString>("project");
        for (const QString& name : QDir(samplesDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QTest::newRow(qPrintable(name)) << name;
    }

    void samplesValidateClean()
    {
        QFETCH(QString, project);
        const SpecLoadResult r = loadSample(project.toUtf8().constData());
        for (const auto& d : r.diagnostics)
            qWarning("%s", formatDiagnostic(d).c_str());
        QVERIFY(r.diagnostics.empty());
        QVERIFY(r.usable());
        QVERIFY(r.spec.cases.size() >= 2);
        QVERIFY(!r.spec.outputs.empty());
        for (const auto& o : r.spec.outputs)
            QVERIFY(o.shape && o.dtype);
    }

    void sampleModel()
    {
        const SpecLoadResult r = loadSample("scale_gelu");
        const OpSpec& s = r.spec;
        QCOMPARE(s.name, std::string("scale_gelu"));
        QCOMPARE(s.ns, std::string("pto"));
        QCOMPARE(s.opType, std::string("ScaleGelu"));
        QCOMPARE(s.version, std::string("1.0.0"));
        QCOMPARE(s.kernel.function, std::string("scale_gelu_kernel"));
        QCOMPARE(s.inputs.size(), std::size_t(1));
        QCOMPARE(s.inputs[0].dtypes, (std::vector<DType>{DType::Float16, DType::Float32}));
        QCOMPARE(*s.inputs[0].rank, 2);
        QCOMPARE(s.params.size(), std::size_t(2));
        QCOMPARE(s.params[0].defaultValue->f, 1.0);
        QVERIFY(!s.params[1].defaultValue);
        QCOMPARE(s.tolerance.perDType.at(DType::Float16).rtol, 1e-3);
        QCOMPARE(s.tolerance.criteria, std::vector<std::string>{"allclose"});
        QCOMPARE(s.targets.soc, std::vector<std::string>{"KirinX90"});
        QCOMPARE(s.cases[0].name, std::string("small"));
        QCOMPARE(s.cases[0].inputs[0].shape, (std::vector<std::int64_t>{4, 64}));
        QCOMPARE(s.cases[0].inputs[0].fill.kind, FillSpec::Kind::Normal);
        QCOMPARE(s.cases[0].params[0].f, 0.5);
        QCOMPARE(s.cases[1].params[0].f, 1.0); // default filled in
        QCOMPARE(s.cases[1].inputs[0].dtype, DType::Float32);
    }

    void brokenFixtures_data()
    {
        QTest::addColumn<QString>("fixture");
        const QDir dir(QStringLiteral(PTOWB_TEST_DATA "/spec_broken"));
        const QStringList files = dir.entryList({QStringLiteral("*.json")});
        QVERIFY(files.size() >= 30);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void brokenFixtures()
    {
        QFETCH(QString, fixture);
        const QString expectPath = fixture.left(fixture.size() - 5) + ".expect";
        const SpecLoadResult r = loadOpSpecText(readAll(fixture), "op.json",
                                                (samplesDir() + "/scale_gelu").toStdString());
        QStringList actual;
        for (const auto& d : r.diagnostics)
            actual << QStringLiteral("%1:%2 %3 %4")
                          .arg(d.line)
                          .arg(d.col)
                          .arg(severityName(d.severity), QString::fromStdString(d.code));
        const QStringList expected =
            QString::fromStdString(readAll(expectPath)).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(!expected.isEmpty(), qPrintable(expectPath));
        QCOMPARE(actual, expected);
        // A description with errors must not be usable; warnings alone leave it usable.
        const bool expectsErrors =
            std::any_of(expected.begin(), expected.end(),
                        [](const QString& l) { return l.contains(QLatin1String(" error ")); });
        QCOMPARE(r.usable(), !expectsErrors);
        for (const auto& d : r.diagnostics) {
            QVERIFY(!d.message.empty());
            QVERIFY(d.endLine > d.line || (d.endLine == d.line && d.endCol >= d.col));
        }
    }

    void diagnosticCarriesPointerAndText()
    {
        const SpecLoadResult r =
            loadOpSpecText(readAll(PTOWB_TEST_DATA "/spec_broken/rule_unknown_name.json"),
                           "p/op.json", (samplesDir() + "/scale_gelu").toStdString());
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = r.diagnostics[0];
        QCOMPARE(d.pointer, std::string("/outputs/0/shape"));
        QCOMPARE(d.endCol - d.col, 7); // exactly "chanels"
        QCOMPARE(formatDiagnostic(d), std::string("p/op.json:11:52: error: unknown name 'chanels'; "
                                                  "did you mean 'channels'? [rule.unknown-name]"));
    }

    void unreadableAndOversizedFiles()
    {
        SpecLoadResult missing = loadOpSpecFile("/nonexistent/op.json");
        QVERIFY(!missing.usable());
        QCOMPARE(missing.diagnostics[0].code, std::string("io.read"));
        QTemporaryDir dir;
        const QString big = dir.filePath("op.json");
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(50 << 20));
        f.close();
        SpecLoadResult huge = loadOpSpecFile(big.toStdString());
        QCOMPARE(huge.diagnostics.size(), std::size_t(1));
        QCOMPARE(huge.diagnostics[0].code, std::string("io.read"));
        QVERIFY(huge.diagnostics[0].message.find("at most") != std::string::npos);
        SpecLoadResult empty = loadOpSpecText("", "op.json", "");
        QCOMPARE(empty.diagnostics[0].code, std::string("json.syntax"));
    }

    void inference()
    {
        const SpecLoadResult r = loadSample("scale_gelu");
        const OpSpec& s = r.spec;
        auto params = std::get<std::vector<rules::Value>>(
            resolveParams(s, {{"channels", rules::Value::ofInt(32)}}));
        QCOMPARE(params[0].f, 1.0);
        const rules::TensorInfo x{{4, 64}, DType::Float16};
        auto outs = std::get<std::vector<InferredOutput>>(inferOutputs(s, {&x, 1}, params));
        QCOMPARE(outs[0].shape, (std::vector<std::int64_t>{4, 32}));
        QCOMPARE(outs[0].dtype, DType::Float16);

        auto violated = resolveParams(s, {{"channels", rules::Value::ofInt(65)}});
        auto e = std::get<InferenceError>(
            inferOutputs(s, {&x, 1}, std::get<std::vector<rules::Value>>(violated)));
        QCOMPARE(e.where, InferenceError::Where::Constraint);
        QCOMPARE(e.message, std::string("channels must be in 1..x.shape[1]"));

        const rules::TensorInfo wrongDtype{{4, 64}, DType::Int32};
        auto d = std::get<InferenceError>(inferOutputs(s, {&wrongDtype, 1}, params));
        QVERIFY(d.message.find("allowed: float16, float32") != std::string::npos);
        const rules::TensorInfo wrongRank{{4}, DType::Float16};
        QVERIFY(std::get<InferenceError>(inferOutputs(s, {&wrongRank, 1}, params))
                    .message.find("rank 1") != std::string::npos);

        auto missing = std::get<InferenceError>(resolveParams(s, {}));
        QVERIFY(missing.message.find("'channels' is required") != std::string::npos);
        auto unknown =
            std::get<InferenceError>(resolveParams(s, {{"chanels", rules::Value::ofInt(1)}}));
        QVERIFY(unknown.message.find("did you mean 'channels'") != std::string::npos);
        auto wrongType =
            std::get<InferenceError>(resolveParams(s, {{"channels", rules::Value::ofStr("a")}}));
        QVERIFY(wrongType.message.find("is int") != std::string::npos);
        // An int given for a float parameter widens.
        auto widened = std::get<std::vector<rules::Value>>(resolveParams(
            s, {{"channels", rules::Value::ofInt(2)}, {"scale", rules::Value::ofInt(3)}}));
        QCOMPARE(widened[0].type, rules::Type::Float);
        QCOMPARE(widened[0].f, 3.0);
    }

    void matmulInference()
    {
        const SpecLoadResult r = loadSample("matmul_bias");
        const std::vector<rules::TensorInfo> in{
            {{8, 16}, DType::Float16}, {{32, 16}, DType::Float16}, {{32}, DType::Float32}};
        auto params = std::get<std::vector<rules::Value>>(
            resolveParams(r.spec, {{"trans_b", rules::Value::ofBool(true)}}));
        auto outs = std::get<std::vector<InferredOutput>>(inferOutputs(r.spec, in, params));
        QCOMPARE(outs[0].shape, (std::vector<std::int64_t>{8, 32}));
        QCOMPARE(outs[0].dtype, DType::Float32);
        const std::vector<rules::TensorInfo> mixed{
            {{8, 16}, DType::Float16}, {{32, 16}, DType::BFloat16}, {{32}, DType::Float32}};
        QCOMPARE(std::get<InferenceError>(inferOutputs(r.spec, mixed, params)).message,
                 std::string("a and b must have the same dtype"));
    }

    void paramValues_data()
    {
        QTest::addColumn<QString>("literal");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("expected");
        QTest::newRow("int") << "32"
                             << "int"
                             << "32";
        QTest::newRow("negative int") << "-3"
                                      << "int"
                                      << "-3";
        QTest::newRow("int overflow") << "99999999999999999999"
                                      << "int"
                                      << "!";
        QTest::newRow("float for int") << "1.5"
                                       << "int"
                                       << "!";
        QTest::newRow("float") << "0.5"
                               << "float"
                               << "0.5";
        QTest::newRow("int as float") << "2"
                                      << "float"
                                      << "2.0";
        QTest::newRow("bool") << "true"
                              << "bool"
                              << "True";
        QTest::newRow("int for bool") << "1"
                                      << "bool"
                                      << "!";
        QTest::newRow("quoted str") << "\"fast\""
                                    << "str"
                                    << "'fast'";
        QTest::newRow("bare str") << "fast"
                                  << "str"
                                  << "'fast'";
        QTest::newRow("number as str") << "32"
                                       << "str"
                                       << "'32'";
        QTest::newRow("int list") << "[0, -1]"
                                  << "int[]"
                                  << "[0, -1]";
        QTest::newRow("bad int list") << "[0, 1.5]"
                                      << "int[]"
                                      << "!";
        QTest::newRow("float list") << "[1, 2.5]"
                                    << "float[]"
                                    << "[1.0, 2.5]";
        QTest::newRow("not a list") << "3"
                                    << "float[]"
                                    << "!";
        QTest::newRow("garbage") << "[1,"
                                 << "int[]"
                                 << "!";
    }

    void paramValues()
    {
        QFETCH(QString, literal);
        QFETCH(QString, type);
        QFETCH(QString, expected);
        auto v =
            paramValueFromLiteral(literal.toStdString(), *paramTypeFromName(type.toStdString()));
        const QString actual = std::holds_alternative<std::string>(v)
                                   ? QStringLiteral("!")
                                   : QString::fromStdString(std::get<rules::Value>(v).toString());
        QCOMPARE(actual, expected);
    }

    void tensorArguments()
    {
        auto ok = [](const char* t) { return std::get<TensorArgument>(parseTensorArgument(t)); };
        QCOMPARE(ok("x=4x64:float16").shape, (std::vector<std::int64_t>{4, 64}));
        QCOMPARE(*ok("x=4x64:float16").dtype, DType::Float16);
        QCOMPARE(ok("x=[4,64]").shape, (std::vector<std::int64_t>{4, 64}));
        QVERIFY(!ok("x=4,64").dtype);
        QCOMPARE(ok("s=:int32").shape, std::vector<std::int64_t>{});
        for (const char* bad :
             {"x", "=4", "x=4x:float16", "x=4xa", "x=-1", "x=4:float17", "x=99999999999999999999"})
            QVERIFY2(std::holds_alternative<std::string>(parseTensorArgument(bad)), bad);
    }

    void fills_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("normal") << "normal(0, 1)"
                                << "normal(0, 1)";
        QTest::newRow("spaces") << "  uniform( -1 ,2.5 ) "
                                << "uniform(-1, 2.5)";
        QTest::newRow("arange") << "arange"
                                << "arange";
        QTest::newRow("zeros()") << "zeros()"
                                 << "zeros";
        QTest::newRow("ones") << "ones"
                              << "ones";
        QTest::newRow("randint") << "randint(0, 10)"
                                 << "randint(0, 10)";
        QTest::newRow("file") << "file:data/x.npy"
                              << "file:data/x.npy";
        QTest::newRow("unknown") << "gauss(0,1)"
                                 << "!";
        QTest::newRow("one arg") << "normal(0)"
                                 << "!";
        QTest::newRow("three args") << "normal(0, 1, 2)"
                                    << "!";
        QTest::newRow("not numbers") << "normal(a, b)"
                                     << "!";
        QTest::newRow("negative std") << "normal(0, -1)"
                                      << "!";
        QTest::newRow("lo > hi") << "uniform(2, 1)"
                                 << "!";
        QTest::newRow("randint floats") << "randint(0.5, 2)"
                                        << "!";
        QTest::newRow("randint empty") << "randint(3, 3)"
                                       << "!";
        QTest::newRow("infinite") << "normal(0, 1e999)"
                                  << "!";
        QTest::newRow("file not npy") << "file:x.txt"
                                      << "!";
        QTest::newRow("file escapes") << "file:../x.npy"
                                      << "!";
        QTest::newRow("file absolute") << "file:/tmp/x.npy"
                                       << "!";
        QTest::newRow("args on zeros") << "zeros(3)"
                                       << "!";
        QTest::newRow("empty") << ""
                               << "!";
    }

    void fills()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto f = parseFillSpec(text.toStdString());
        const QString actual =
            std::holds_alternative<std::string>(f)
                ? QStringLiteral("!")
                : QString::fromStdString(fillSpecToString(std::get<FillSpec>(f)));
        QCOMPARE(actual, expected);
    }

    void identifiers()
    {
        for (const char* ok : {"x", "scale_gelu", "_private", "a1", "channels"})
            QVERIFY2(checkIdentifier(ok).empty(), ok);
        const std::string tooLong(65, 'a');
        for (const char* bad :
             {"", "X", "1a", "a-b", "a b", "class", "def", "lambda", "None", "new", "delete", "int",
              "namespace", "template", "__init", "é", tooLong.c_str()})
            QVERIFY2(!checkIdentifier(bad).empty(), bad);
        // Inputs and parameters bind to the kernel's Python parameters: a C++ keyword is fine.
        for (const char* ok : {"do", "K", "NUM_ROWS", "int"})
            QVERIFY2(checkArgumentName(ok).empty(), ok);
        for (const char* bad : {"class", "lambda", "None", "__x", "1a"})
            QVERIFY2(!checkArgumentName(bad).empty(), bad);
        for (const char* ok : {"ScaleGelu", "A", "Op2"})
            QVERIFY2(checkOpTypeName(ok).empty(), ok);
        for (const char* bad : {"scaleGelu", "Scale_Gelu", "", "None", "True", "A-B"})
            QVERIFY2(!checkOpTypeName(bad).empty(), bad);
        // The kernel's function is the author's Python: a C++ keyword names it, a Python one not.
        const std::string base = readAll(samplesDir() + QStringLiteral("/softmax/op.json"));
        for (const auto& [function, ok] :
             std::vector<std::pair<std::string, bool>>{{"double", true}, {"class", false}}) {
            nlohmann::json j = nlohmann::json::parse(base);
            j["kernel"]["function"] = function;
            const SpecLoadResult r =
                loadOpSpecText(j.dump(), "op.json", PTOWB_SOURCE_DIR "/projects/softmax");
            const bool refused =
                std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const Diagnostic& d) { return d.code == "spec.bad-identifier"; });
            QVERIFY2(refused != ok, function.c_str());
        }
    }

    // Every key op.json accepts at its top level has hover help.
    void opJsonHelpCoversTheKeys()
    {
        for (const char* key :
             {"format",    "name",      "namespace", "op_type",    "version", "doc",
              "kernel",    "reference", "inputs",    "parameters", "outputs", "constraints",
              "tolerance", "cases",     "seed",      "targets",    "dtypes",  "rank",
              "type",      "default",   "shape",     "dtype",      "check",   "message",
              "rtol",      "atol",      "criteria",  "fill",       "soc",     "onnx_opset",
              "arguments", "class",     "fields",    "init"})
            QVERIFY2(!opJsonHelp(key).empty(), key);
        QVERIFY(opJsonHelp("float16").find("2 bytes") != std::string::npos);
        QVERIFY(opJsonHelp("matmul_shape").find("matmul") != std::string::npos);
        QVERIFY(opJsonHelp("frobnicate").empty());
        QVERIFY(opJsonHelp("").empty());
        // Every rule function and fill has help and a completion with its arguments.
        const std::vector<std::string> completions = opJsonCompletions();
        auto completes = [&](const std::string& word) {
            return std::find(completions.begin(), completions.end(), word) != completions.end();
        };
        for (const std::string& name : rules::builtinNames()) {
            QVERIFY2(opJsonHelp(name).find("Rule function " + name + "(") == 0, name.c_str());
            QVERIFY2(completes(rules::builtinSignature(*rules::builtinFromName(name))),
                     name.c_str());
        }
        for (const FillForm& form : fillForms()) {
            QVERIFY2(!opJsonHelp(form.name).empty() && completes(form.written), form.name);
            // Each form reads back as itself.
            const auto parsed =
                parseFillSpec(form.takesArgs ? std::string(form.name) + "(0, 1)" : form.name);
            QVERIFY(std::holds_alternative<FillSpec>(parsed));
            QCOMPARE(int(std::get<FillSpec>(parsed).kind), int(form.kind));
        }
        for (const char* word : {"ptowb-op/1", "allclose", "float16", "mutated"})
            QVERIFY2(completes(word), word);
    }

    // The loader takes exactly the vocabulary's top-level keys and criteria: an unknown one is a
    // diagnostic with a suggestion from the same table.
    void loaderFollowsTheVocabulary()
    {
        const std::string base = readAll(samplesDir() + QStringLiteral("/softmax/op.json"));
        // ... and the comparison judges by each of them (a doubled output fails every one).
        Tensor expected(DType::Float32, {64}), doubled(DType::Float32, {64});
        for (int k = 0; k < 64; ++k) {
            expected.set(k, 1.0 + k);
            doubled.set(k, 2.0 * (1.0 + k) * (k % 2 ? 1 : -1));
        }
        for (const std::string& criterion : opJsonWords(OpJsonWordKind::Criterion)) {
            Criteria only;
            only.names = {criterion};
            const Verdict verdict =
                judge(compareTensors(doubled, expected, compareOptionsFor(only)), only);
            QVERIFY2(!verdict.pass && verdict.rule != criterion, criterion.c_str());
        }
        for (const std::string& criterion : opJsonWords(OpJsonWordKind::Criterion)) {
            nlohmann::json j = nlohmann::json::parse(base);
            j["tolerance"]["criteria"] = {criterion};
            const SpecLoadResult r =
                loadOpSpecText(j.dump(), "op.json", PTOWB_SOURCE_DIR "/projects/softmax");
            QVERIFY2(!hasErrors(r.diagnostics), criterion.c_str());
        }
        nlohmann::json j = nlohmann::json::parse(base);
        j["tolerance"]["criteria"] = {"cosin"};
        j["seeds"] = 1;
        const SpecLoadResult r =
            loadOpSpecText(j.dump(), "op.json", PTOWB_SOURCE_DIR "/projects/softmax");
        std::string all;
        for (const Diagnostic& d : r.diagnostics)
            all += d.message + "\n";
        QVERIFY2(all.find("'cosine'") != std::string::npos &&
                     all.find("'seed'") != std::string::npos,
                 all.c_str());
        const std::vector<std::string> top = opJsonWords(OpJsonWordKind::TopKey);
        for (const auto& [key, value] : nlohmann::json::parse(base).items())
            QVERIFY2(std::find(top.begin(), top.end(), key) != top.end(), key.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSpec)
#include "tst_spec.moc"
