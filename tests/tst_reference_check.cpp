// reference.py is the TorchScript subset everywhere. Regressions: an import line with other
// statements after ';' (import lines are blanked before compiling, so they vanished and the old
// Python glue ran them); torch.from_file / torch.save writing files on every run; 8,000 nested
// parentheses and a 30,000-term line crashing libtorch's recursive parser. Every problem is a
// diagnostic at its reference.py line:col, found before libtorch sees the text.
#include "reference/reference_check.h"
#include "reference/reference_program.h"
#include "spec/op_spec_loader.h"

#include <QDir>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace ptowb;

namespace {

OpSpec scaleGelu()
{
    SpecLoadResult r = loadOpSpecFile(PTOWB_SOURCE_DIR "/projects/scale_gelu/op.json");
    if (!r.usable()) qFatal("scale_gelu does not validate");
    return r.spec;
}

const char* const kBody =
    "def scale_gelu_reference(x: Tensor, scale: float, channels: int) -> Tensor:\n";

// "line:col code" of every error, in order.
QStringList errorsOf(const Diagnostics& diagnostics)
{
    QStringList out;
    for (const Diagnostic& d : diagnostics)
        if (d.isError())
            out << QStringLiteral("%1:%2 %3")
                       .arg(d.line)
                       .arg(d.col)
                       .arg(QString::fromStdString(d.code));
    return out;
}

QString messages(const Diagnostics& diagnostics)
{
    QString out;
    for (const Diagnostic& d : diagnostics)
        out += QString::fromStdString(formatDiagnostic(d)) + QLatin1Char('\n');
    return out;
}

} // namespace

class TestReferenceCheck : public QObject
{
    Q_OBJECT

    OpSpec m_spec = scaleGelu();

    Diagnostics load(const std::string& source)
    {
        return ReferenceProgram::load(m_spec, source, "reference.py").diagnostics;
    }

private Q_SLOTS:
    void importLineWithMoreStatements()
    {
        QTemporaryDir dir;
        const std::string marker = dir.filePath(QStringLiteral("pwned")).toStdString();
        const std::string source = "import torch; import os; os.system(\"touch " + marker +
                                   "\")\nfrom torch import Tensor\n\n\n" + kBody +
                                   "    return x[:, :channels] * scale\n";
        const Diagnostics d = load(source);
        const QStringList errors = errorsOf(d);
        QVERIFY2(errors.contains(QStringLiteral("1:22 reference.import")),
                 qPrintable(messages(d))); // import os
        QVERIFY2(errors.contains(QStringLiteral("1:13 reference.import")),
                 qPrintable(messages(d))); // the first ';'
        QVERIFY(messages(d).contains(QStringLiteral("not 'os'")));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(marker)));
    }

    void importsOnlyTorchMathTyping_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<QString>("error"); // "" when the imports are fine
        QTest::newRow("torch") << "import torch\nfrom torch import Tensor"
                               << "";
        QTest::newRow("functional alias")
            << "import torch\nimport torch.nn.functional as F\nfrom torch import Tensor"
            << "";
        QTest::newRow("typing and math") << "import math\nfrom typing import List, "
                                            "Optional\nimport torch\nfrom torch import Tensor"
                                         << "";
        QTest::newRow("parenthesized") << "import torch\nfrom torch import (\n    Tensor,\n)"
                                       << "";
        QTest::newRow("os") << "import os\nimport torch\nfrom torch import Tensor"
                            << "1:8 reference.import";
        QTest::newRow("from subprocess")
            << "from subprocess import run\nimport torch\nfrom torch import Tensor"
            << "1:6 reference.import";
        QTest::newRow("star") << "import torch\nfrom torch import *\nfrom torch import Tensor"
                              << "2:19 reference.import";
        QTest::newRow("indented")
            << "import torch\nfrom torch import Tensor\nif True:\n    import torch"
            << "4:5 reference.import";
        QTest::newRow("import save") << "import torch\nfrom torch import Tensor, save"
                                     << "2:27 reference.forbidden";
        QTest::newRow("continued") << "import torch, \\\n  os\nfrom torch import Tensor"
                                   << "2:3 reference.import";
    }

    void importsOnlyTorchMathTyping()
    {
        QFETCH(QString, header);
        QFETCH(QString, error);
        const std::string source =
            header.toStdString() + "\n\n\n" + kBody + "    return x[:, :channels] * scale\n";
        const QStringList errors = errorsOf(checkReferenceSource(source, "reference.py"));
        if (error.isEmpty())
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char(' '))));
        else
            QVERIFY2(errors.contains(error), qPrintable(errors.join(QLatin1Char(' '))));
    }

    void sideEffectsAreErrors_data()
    {
        QTest::addColumn<QString>("line"); // the second line of the function body
        QTest::addColumn<QString>("error");
        QTest::newRow("from_file") << "    t = torch.from_file('/tmp/x', True, 16)"
                                   << "6:15 reference.forbidden";
        QTest::newRow("save") << "    torch.save(x, '/tmp/x')"
                              << "6:11 reference.forbidden";
        QTest::newRow("load") << "    t = torch.load('/tmp/x')"
                              << "6:15 reference.forbidden";
        QTest::newRow("jit save") << "    torch.jit.save(x, '/tmp/x')"
                                  << "6:15 reference.forbidden";
        QTest::newRow("ops") << "    t = torch.ops.aten.relu(x)"
                             << "6:15 reference.forbidden";
        QTest::newRow("alias") << "    t = F.save(x, '/tmp/x')"
                               << "6:11 reference.forbidden";
        QTest::newRow("math") << "    math.save(x, '/tmp/x')"
                              << "6:10 reference.forbidden";
        QTest::newRow("getattr") << "    t = getattr(torch, 'save')"
                                 << "6:9 reference.forbidden";
        QTest::newRow("open") << "    f = open('/etc/passwd')"
                              << "6:9 reference.forbidden";
        QTest::newRow("in a string: fine") << "    s = 'torch.save(x)'  # torch.save"
                                           << "";
        QTest::newRow("attribute of a tensor: fine") << "    t = x.load"
                                                     << "";
    }

    void sideEffectsAreErrors()
    {
        QFETCH(QString, line);
        QFETCH(QString, error);
        const std::string source = "import math\nimport torch\nimport torch.nn.functional as "
                                   "F\nfrom torch import Tensor\n" +
                                   std::string(kBody) + line.toStdString() +
                                   "\n    return x[:, :channels] * scale\n";
        const QStringList errors = errorsOf(checkReferenceSource(source, "reference.py"));
        if (error.isEmpty())
            QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char(' '))));
        else
            QCOMPARE(errors.value(0), error);
    }

    // torch.save reached without its name: the compiled graph is checked too.
    void compiledGraphIsChecked()
    {
        const std::string source = "import torch\nfrom torch import Tensor\n\n\n" +
                                   std::string(kBody) +
                                   "    s = torch\n    s.save(x, '/tmp/ptowb-never')\n" +
                                   "    return x[:, :channels] * scale\n";
        QVERIFY(errorsOf(checkReferenceSource(source, "reference.py")).isEmpty());
        const Diagnostics d = load(source);
        QVERIFY2(hasErrors(d), "compiled");
        QVERIFY2(d[0].line == 7 &&
                     (d[0].code == "reference.forbidden" || d[0].code == "reference.compile"),
                 qPrintable(messages(d)));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/ptowb-never")));
    }

    void deepNestingIsADiagnostic()
    {
        const std::string parens = "import torch\nfrom torch import Tensor\n\n\n" +
                                   std::string(kBody) + "    y = " + std::string(8000, '(') + "x" +
                                   std::string(8000, ')') + "\n    return y\n";
        const Diagnostics d = load(parens);
        QCOMPARE(errorsOf(d).value(0), QStringLiteral("6:%1 reference.too-deep").arg(9 + 200));
        std::string sum =
            "import torch\nfrom torch import Tensor\n\n\n" + std::string(kBody) + "    y = x";
        for (int k = 0; k < 30000; ++k)
            sum += " + x";
        QCOMPARE(errorsOf(load(sum + "\n    return y\n")).value(0).section(QLatin1Char(' '), 1),
                 QStringLiteral("reference.too-long"));
        std::string blocks = "import torch\nfrom torch import Tensor\n\n\n" + std::string(kBody);
        for (int k = 1; k <= 150; ++k)
            blocks += std::string(std::size_t(k), ' ') + "if True:\n";
        blocks += std::string(151, ' ') + "pass\n    return x\n";
        QCOMPARE(errorsOf(load(blocks)).value(0).section(QLatin1Char(' '), 1),
                 QStringLiteral("reference.too-deep"));
        // Within the limits the same shapes compile.
        const std::string fine = "import torch\nfrom torch import Tensor\n\n\n" +
                                 std::string(kBody) + "    y = " + std::string(50, '(') + "x" +
                                 std::string(50, ')') +
                                 " + x + x\n    return y[:, :channels] * scale\n";
        QVERIFY2(!hasErrors(load(fine)), qPrintable(messages(load(fine))));
        std::string longest =
            "import torch\nfrom torch import Tensor\n\n\n" + std::string(kBody) + "    y = x";
        for (int k = 0; k < kMaxReferenceOperators; ++k)
            longest += " + x"; // the most one statement may have
        longest += "\n    return y[:, :channels] * scale\n";
        // At the limit, libtorch's recursion fits a thread stack well below the usual 8 MiB.
        Diagnostics longestDiagnostics;
        QThread* thread = QThread::create([&] { longestDiagnostics = load(longest); });
        thread->setStackSize(2u << 20);
        thread->start();
        QVERIFY(thread->wait(60000));
        delete thread;
        QVERIFY2(!hasErrors(longestDiagnostics), qPrintable(messages(longestDiagnostics)));
    }

    // Every parser gets fed bad input: random bytes and mangled references, no crash.
    // Statements cut short after their keyword: TorchScript reports the syntax; the checker
    // reads nothing past the statement (found by fuzzing: a bare `from` read one token beyond).
    void truncatedImports()
    {
        for (const char* text : {"from", "from\n", "import", "from torch import", "import torch as",
                                 "from torch import x as", "from .", "import torch,"}) {
            const Diagnostics d = checkReferenceSource(text, "reference.py");
            for (const auto& diagnostic : d)
                QVERIFY2(diagnostic.line == 1 && diagnostic.col >= 1, text);
        }
    }

    void garbageNeverCrashes()
    {
        QRandomGenerator random(13);
        const std::string valid = "import torch\nfrom torch import Tensor\n\n\n" +
                                  std::string(kBody) + "    return x[:, :channels] * scale\n";
        for (int k = 0; k < 300; ++k) {
            std::string text = valid;
            const int edits = 1 + int(random.bounded(20));
            for (int e = 0; e < edits; ++e) {
                const std::size_t at = random.bounded(quint32(text.size() + 1));
                static const char* const kBits[] = {"(",    ")",  "[",    "'''",        "\"",
                                                    "\\",   "\n", "    ", "import os;", "torch.",
                                                    "\xff", "#",  ";",    "\t"};
                text.insert(at, kBits[random.bounded(quint32(std::size(kBits)))]);
            }
            checkReferenceSource(text, "reference.py");
            if (k % 10 == 0) load(text);
        }
        std::string bytes(4096, '\0');
        for (char& c : bytes)
            c = char(random.bounded(256));
        checkReferenceSource(bytes, "reference.py");
        load(bytes);
    }
};

QTEST_GUILESS_MAIN(TestReferenceCheck)
#include "tst_reference_check.moc"
