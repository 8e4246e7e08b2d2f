// The CPU reference compiled in-process: sample references against hand computations,
// compile and signature errors at reference.py lines, runtime errors, caching, import forms.
#include "reference/reference_program.h"
#include "spec/inference.h"
#include "spec/op_spec_loader.h"
#include "tensor/case_inputs.h"

#include <QFile>
#include <QtTest>
#include <cmath>

using namespace ptowb;

namespace {

std::string projectDir(const char* name)
{
    return std::string(PTOWB_SOURCE_DIR "/projects/") + name;
}

std::string readAll(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

OpSpec loadSpec(const char* name)
{
    SpecLoadResult r = loadOpSpecFile(projectDir(name) + "/op.json");
    if (!r.usable()) qFatal("sample %s does not validate", name);
    return r.spec;
}

ReferenceProgram::LoadResult loadReference(const OpSpec& spec, const std::string& source)
{
    return ReferenceProgram::load(spec, source, "reference.py");
}

QString firstDiagnostic(const ReferenceProgram::LoadResult& r)
{
    if (r.diagnostics.empty()) return {};
    const Diagnostic& d = r.diagnostics[0];
    return QStringLiteral("%1:%2 %3: %4")
        .arg(d.line)
        .arg(d.col)
        .arg(QString::fromStdString(d.code), QString::fromStdString(d.message));
}

struct CaseRun
{
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    std::vector<InferredOutput> expectedOutputs;
};

CaseRun runCase(const OpSpec& spec, const char* project, std::size_t caseIndex)
{
    const CaseSpec& c = spec.cases.at(caseIndex);
    CaseRun run;
    run.inputs = std::get<std::vector<Tensor>>(makeCaseInputs(spec, c, projectDir(project)));
    auto loaded = loadReference(spec, readAll(projectDir(project) + "/reference.py"));
    if (!loaded.program) qFatal("reference does not load: %s", qPrintable(firstDiagnostic(loaded)));
    auto result = loaded.program->run(run.inputs, c.params);
    if (auto* e = std::get_if<std::string>(&result)) qFatal("reference failed: %s", e->c_str());
    run.outputs = std::get<std::vector<Tensor>>(result);
    std::vector<rules::TensorInfo> infos;
    for (const auto& t : run.inputs)
        infos.push_back({t.shape(), t.dtype()});
    run.expectedOutputs =
        std::get<std::vector<InferredOutput>>(inferOutputs(spec, infos, c.params));
    return run;
}

double tolerance(DType d)
{
    return d == DType::Float16 ? 2e-3 : d == DType::BFloat16 ? 1e-2 : 1e-5;
}

} // namespace

class TestReference : public QObject
{
    Q_OBJECT

private slots:
    void scaleGeluMatchesFormula()
    {
        const OpSpec spec = loadSpec("scale_gelu");
        for (std::size_t c = 0; c < spec.cases.size(); ++c) {
            const CaseRun r = runCase(spec, "scale_gelu", c);
            const Tensor& x = r.inputs[0];
            const Tensor& y = r.outputs[0];
            QCOMPARE(y.shape(), r.expectedOutputs[0].shape);
            QCOMPARE(y.dtype(), r.expectedOutputs[0].dtype);
            const double scale = spec.cases[c].params[0].f;
            const std::int64_t channels = spec.cases[c].params[1].i;
            for (std::int64_t i = 0; i < y.shape()[0]; ++i)
                for (std::int64_t j = 0; j < channels; ++j) {
                    const double v = x.at(i * x.shape()[1] + j);
                    const double g =
                        0.5 * v *
                        (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))) * scale;
                    const double got = y.at(i * channels + j);
                    QVERIFY2(std::fabs(got - g) <= tolerance(y.dtype()) * (1 + std::fabs(g)),
                             qPrintable(QString::number(got) + " vs " + QString::number(g)));
                }
        }
    }

    void softmaxRowsSumToOne()
    {
        const OpSpec spec = loadSpec("softmax");
        for (std::size_t c = 0; c < spec.cases.size(); ++c) {
            const CaseRun r = runCase(spec, "softmax", c);
            const Tensor& x = r.inputs[0];
            const Tensor& y = r.outputs[0];
            QCOMPARE(y.shape(), r.expectedOutputs[0].shape);
            QCOMPARE(y.dtype(), x.dtype());
            const std::int64_t rows = x.shape()[0], cols = x.shape()[1];
            for (std::int64_t i = 0; i < rows; ++i) {
                double m = -HUGE_VAL, sum = 0;
                for (std::int64_t j = 0; j < cols; ++j)
                    m = std::max(m, x.at(i * cols + j));
                for (std::int64_t j = 0; j < cols; ++j)
                    sum += std::exp(x.at(i * cols + j) - m);
                for (std::int64_t j = 0; j < cols; ++j) {
                    const double want = std::exp(x.at(i * cols + j) - m) / sum;
                    QVERIFY(std::fabs(y.at(i * cols + j) - want) <=
                            tolerance(y.dtype()) * (1e-3 + want));
                }
            }
        }
    }

    void matmulBiasMatchesNaiveProduct()
    {
        const OpSpec spec = loadSpec("matmul_bias");
        for (std::size_t c = 0; c < spec.cases.size(); ++c) {
            const CaseRun r = runCase(spec, "matmul_bias", c);
            const Tensor &a = r.inputs[0], &b = r.inputs[1], &bias = r.inputs[2];
            const Tensor& y = r.outputs[0];
            const bool transB = spec.cases[c].params[0].asBool();
            QCOMPARE(y.shape(), r.expectedOutputs[0].shape);
            QCOMPARE(y.dtype(), DType::Float32);
            const std::int64_t m = a.shape()[0], k = a.shape()[1], n = y.shape()[1];
            for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                    double acc = bias.at(j);
                    for (std::int64_t p = 0; p < k; ++p)
                        acc += a.at(i * k + p) * (transB ? b.at(j * k + p) : b.at(p * n + j));
                    QVERIFY(std::fabs(y.at(i * n + j) - acc) <= 1e-4 * (1 + std::fabs(acc)));
                }
        }
    }

    void compileErrorsPointAtReferenceLines_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        const QString head = QStringLiteral("import torch\nfrom torch import Tensor\n\n\ndef "
                                            "softmax_reference(x: Tensor) -> Tensor:\n");
        QTest::newRow("unknown op") << head + "    y = torch.not_an_op(x)\n    return y\n"
                                    << "6:9 reference.compile";
        QTest::newRow("syntax") << head + "    y = (x + \n    return y\n"
                                << "7:5 reference.compile";
        QTest::newRow("undefined name") << head + "    return x * undefined_thing\n"
                                        << "6:16 reference.compile";
        QTest::newRow("type error") << head + "    return x + 'a'\n"
                                    << "6:12 reference.compile";
        QTest::newRow("raise") << head + "    raise ValueError(\"x must be 2-D\")\n"
                               << "6:11 reference.compile: raise ValueError(...) is not in the "
                                  "reference subset: use assert condition, \"message\"";
        QTest::newRow("still to write")
            << head + "    raise RuntimeError(\"TODO: write what softmax_kernel computes\")\n"
            << "6:11 reference.todo: reference.py is still to be written: write what "
               "softmax_kernel computes";
        // TorchScript lists each of eq's ~25 forms with its reason: one sentence is kept.
        QTest::newRow("no form fits")
            << head + "    assert x.dim() == 2 == x.dim()\n    return x\n"
            << "6:12 reference.compile: no form of 'eq' takes these arguments (the first: expected "
               "a value of type 'Tensor' for argument 'self' but instead found type 'bool')";
        QTest::newRow("wrong function")
            << QStringLiteral("def other(x):\n    return x\n") << "1:1 reference.missing-function";
    }

    void compileErrorsPointAtReferenceLines()
    {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        const OpSpec spec = loadSpec("softmax");
        const auto r = loadReference(spec, source.toStdString());
        QVERIFY(!r.program);
        QVERIFY2(firstDiagnostic(r).startsWith(expected), qPrintable(firstDiagnostic(r)));
        QCOMPARE(r.diagnostics[0].file, std::string("reference.py"));
        QVERIFY(r.diagnostics[0].message.find("<string>") == std::string::npos);
        QVERIFY(r.diagnostics[0].message.find("original call") == std::string::npos);
    }

    void unknownTorchFunctionSuggestsTheRightOne()
    {
        const OpSpec spec = loadSpec("softmax");
        const auto r = loadReference(spec, "import torch\ndef softmax_reference(x: Tensor) -> "
                                           "Tensor:\n    return torch.sofmax(x, -1)\n");
        QCOMPARE(firstDiagnostic(r),
                 QStringLiteral("3:12 reference.compile: unknown torch function 'sofmax'; did you "
                                "mean 'softmax' or 'fmax'?"));
        // TorchScript's own list puts silu seventh for sliu: the closest come first, three at most.
        const auto swapped =
            loadReference(spec, "import torch\ndef softmax_reference(x: Tensor) -> "
                                "Tensor:\n    return torch.sliu(x)\n");
        const QString message = firstDiagnostic(swapped);
        QVERIFY2(message.contains(QStringLiteral("did you mean 'silu'")), qPrintable(message));
        QVERIFY2(message.count(QStringLiteral(" or ")) <= 2, qPrintable(message));
    }

    void signatureChecks()
    {
        const OpSpec spec = loadSpec("scale_gelu");
        auto diag = [&](const char* source) {
            return firstDiagnostic(loadReference(spec, source));
        };
        QVERIFY(diag("def scale_gelu_reference(x: Tensor, scale: float, channels: int, extra: int) "
                     "-> Tensor:\n    return x\n")
                    .contains("'extra' is neither an input nor a parameter"));
        QVERIFY(diag("def scale_gelu_reference(scale: float, channels: int) -> Tensor:\n    return "
                     "torch.zeros([1])\n")
                    .contains("no argument for input 'x'"));
        QVERIFY(diag("def scale_gelu_reference(x: Tensor, scale: int, channels: int) -> Tensor:\n  "
                     "  return x\n")
                    .contains("'scale' is a float parameter, but is annotated int"));
        QVERIFY(diag("def scale_gelu_reference(x: int, scale: float, channels: int) -> Tensor:\n   "
                     " return torch.zeros([1])\n")
                    .contains("must be annotated Tensor"));
        const QString tuple = diag("def scale_gelu_reference(x: Tensor, scale: float, channels: "
                                   "int):\n    y = x * scale\n    return y, y\n");
        QVERIFY2(tuple.startsWith("3:1 reference.return-type"), qPrintable(tuple));
        QVERIFY(tuple.contains("must return a Tensor"));
        // An op whose only result is an input it updates: its reference returns None, and
        // nothing else will do.
        OpSpec inPlace = spec;
        inPlace.outputs.clear();
        inPlace.inputs[0].mutated = true;
        const auto none = loadReference(inPlace, "def scale_gelu_reference(x: Tensor, scale: "
                                                 "float) -> None:\n    x.mul_(scale)\n");
        QVERIFY2(none.program, qPrintable(firstDiagnostic(none)));
        for (const char* returns : {"int:\n    x.mul_(scale)\n    return 1\n",
                                    "Optional[Tensor]:\n    x.mul_(scale)\n    return x\n"}) {
            const QString wrong = firstDiagnostic(loadReference(
                inPlace,
                std::string("def scale_gelu_reference(x: Tensor, scale: float) -> ") + returns));
            QVERIFY2(wrong.contains("reference.return-type") && wrong.contains("must return None"),
                     qPrintable(wrong));
        }
        // Arguments bind by name, in any order; unused parameters are fine.
        const auto reordered =
            loadReference(spec, "def scale_gelu_reference(channels: int, x: Tensor) -> Tensor:\n   "
                                " return x[:, :channels]\n");
        QVERIFY2(reordered.program, qPrintable(firstDiagnostic(reordered)));
    }

    void runtimeErrorsAreValues()
    {
        const OpSpec spec = loadSpec("softmax");
        const auto r = loadReference(spec, "import torch\ndef softmax_reference(x: Tensor) -> "
                                           "Tensor:\n    return torch.matmul(x, x)\n");
        QVERIFY(r.program);
        const Tensor x(DType::Float32, {2, 3});
        const std::vector<Tensor> inputs{x};
        auto result = r.program->run(inputs, {});
        QVERIFY(std::holds_alternative<std::string>(result));
        const std::string& message = std::get<std::string>(result);
        QVERIFY2(message.find("reference line 3") != std::string::npos, message.c_str());
        QVERIFY2(message.find("cannot be multiplied") != std::string::npos, message.c_str());
    }

    void importFormsResolve()
    {
        const OpSpec spec = loadSpec("softmax");
        const char* sources[] = {
            "import torch.nn.functional as F\nimport torch\ndef softmax_reference(x: Tensor) -> "
            "Tensor:\n    return F.softmax(x.to(torch.float32), -1).to(x.dtype)\n",
            "from torch.nn.functional import softmax as sm\nfrom torch import float32\ndef "
            "softmax_reference(x: Tensor) -> Tensor:\n    return sm(x.to(float32), "
            "-1).to(x.dtype)\n",
            "from torch.nn import functional\nimport torch\ndef softmax_reference(x: torch.Tensor) "
            "-> torch.Tensor:\n    return functional.softmax(x.double(), -1).to(x.dtype)\n",
            "from typing import (\n    List,\n    Optional)\nimport math\nimport torch\ndef "
            "softmax_reference(x: Tensor) -> Tensor:\n    e = torch.exp(x.float() * math.e / "
            "math.e - torch.amax(x.float(), -1, True))\n    return (e / e.sum(-1, "
            "keepdim=True)).to(x.dtype)\n",
        };
        Tensor x(DType::Float32, {1, 3});
        x.set(0, 1.0);
        x.set(1, 2.0);
        x.set(2, 3.0);
        const std::vector<Tensor> inputs{x};
        for (const char* source : sources) {
            const auto r = loadReference(spec, source);
            QVERIFY2(r.program, qPrintable(firstDiagnostic(r) + "\n" + source));
            auto out = std::get<std::vector<Tensor>>(r.program->run(inputs, {}));
            const double e3 = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
            QVERIFY(std::fabs(out[0].at(2) - std::exp(3.0) / e3) < 1e-6);
        }
    }

    void compiledOnceByContent()
    {
        const OpSpec spec = loadSpec("matmul_bias");
        const std::string source =
            readAll(projectDir("matmul_bias") + "/reference.py") + "\n# cache probe\n";
        const int before = ReferenceProgram::compilationCount();
        QVERIFY(loadReference(spec, source).program);
        QVERIFY(loadReference(spec, source).program);
        QCOMPARE(ReferenceProgram::compilationCount(), before + 1);
        QVERIFY(loadReference(spec, source + " ").program);
        QCOMPARE(ReferenceProgram::compilationCount(), before + 2);
    }

    void stripImportsKeepsLines()
    {
        std::vector<std::pair<std::string, std::string>> aliases;
        const std::string out = stripImports("import torch\nimport torch.nn.functional as F, "
                                             "math\nfrom a.b import (c,\n d as e)\nx = 1\n",
                                             aliases);
        QCOMPARE(out, std::string("\n\n\n\nx = 1\n"));
        const std::vector<std::pair<std::string, std::string>> want{{"torch", "torch"},
                                                                    {"F", "torch.nn.functional"},
                                                                    {"math", "math"},
                                                                    {"c", "a.b.c"},
                                                                    {"e", "a.b.d"}};
        QCOMPARE(aliases, want);
    }
};

QTEST_GUILESS_MAIN(TestReference)
#include "tst_reference.moc"
