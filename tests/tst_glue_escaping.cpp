// Description text reaches generated code only as data. Regressions: a str default that closed
// the module docstring ran code on import; a non-ASCII default broke the import; the Python glue
// executed reference.py as Python. A property test feeds random hostile text to every string
// field of op.json and proves, with Debian's python3 (parsing only, never importing), that each
// generated module parses, holds the text as string constants, and has exactly the syntax tree
// of the same op with plain text; a C++ program proves the C++ literals round-trip byte-exact.
#include "codegen/cpp_rule_emitter.h"
#include "codegen/glue.h"
#include "codegen/python_rule_emitter.h"
#include "hostile_ops.h"
#include "spec/op_spec_loader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <set>

using namespace ptowb;
using namespace ptowb::testing;

namespace {

struct Run
{
    int exitCode = -1;
    QString output;
};

Run run(const QString& program, const QStringList& args, const QString& dir = {})
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!dir.isEmpty()) p.setWorkingDirectory(dir);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(300000)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromUtf8(p.readAll());
    return r;
}

void writeFile(const QString& path, const std::string& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(text.data(), qint64(text.size()));
}

// Generates the Python glue of a project written to `dir`; the spec must validate.
std::string pythonModule(const QString& dir, const std::string& json, const std::string& reference,
                         const std::string& name)
{
    writeFile(dir + QStringLiteral("/op.json"), json);
    writeFile(dir + QStringLiteral("/kernel.py"), "def " + name + "_kernel():\n    pass\n");
    writeFile(dir + QStringLiteral("/reference.py"), reference);
    const SpecLoadResult loaded = loadOpSpecText(json, "op.json", dir.toStdString());
    for (const Diagnostic& d : loaded.diagnostics)
        if (d.isError()) qWarning("%s", formatDiagnostic(d).c_str());
    if (!loaded.usable()) return {};
    const codegen::GlueSource source{loaded.spec, json, "def " + name + "_kernel():\n    pass\n",
                                     reference};
    for (const auto& f : codegen::generatePythonGlue(source))
        if (f.path.size() > 11 && f.path.compare(f.path.size() - 11, 11, "__init__.py") == 0)
            return f.content;
    return {};
}

} // namespace

class TestGlueEscaping : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;

    // Writes the op's Python glue as an importable package and imports it with Debian's python3.
    Run importOp(const QString& name, const std::string& strDefault, const std::string& reference,
                 const QString& marker)
    {
        const QString dir = m_work.filePath(name);
        const std::string module = pythonModule(
            dir,
            opJson("qns", name.toStdString(), "x", "mode", {"d", "i", "p", strDefault, "m", "r"}),
            reference, name.toStdString());
        if (module.empty()) return {};
        writeFile(dir + QStringLiteral("/python/qns_") + name + QStringLiteral("/__init__.py"),
                  module);
        writeFile(dir + QStringLiteral("/import.py"), kImportScript);
        return run(QStringLiteral(PTOWB_PYTHON),
                   {dir + QStringLiteral("/import.py"), dir + QStringLiteral("/python"),
                    QStringLiteral("qns_") + name, QStringLiteral("mode"), marker},
                   dir);
    }

private Q_SLOTS:
    void strDefaultCannotCloseTheDocstring()
    {
        const QString marker = m_work.filePath(QStringLiteral("pwned-docstring"));
        const std::string attack =
            "\"\"\"+str(__import__(\"os\").system(\"touch " + marker.toStdString() + "\"))+\"\"\"";
        const Run r = importOp(QStringLiteral("qdoc"), attack, referenceFor("qdoc", "x"), marker);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("y [2.0, 2.0, 2.0]")), qPrintable(r.output));
        QVERIFY2(r.output.contains(QStringLiteral("default ") +
                                   QString::fromLatin1(QByteArray::fromStdString(attack).toHex())),
                 qPrintable(r.output));
        QVERIFY(r.output.contains(QStringLiteral("pwned False")));
        QVERIFY(!QFileInfo::exists(marker));
    }

    void nonAsciiDefaultImports()
    {
        for (const std::string text : {"café", "✓ 😀 \u2028", "tab\tquote' back\\slash\x01"}) {
            const Run r =
                importOp(QStringLiteral("qutf%1").arg(text.size()), text,
                         referenceFor("qutf" + std::to_string(text.size()), "x"), QString());
            QVERIFY2(r.exitCode == 0, qPrintable(r.output));
            QVERIFY2(
                r.output.contains(QStringLiteral("default ") +
                                  QString::fromLatin1(QByteArray::fromStdString(text).toHex())),
                qPrintable(r.output));
        }
    }

    // The glue compiles the reference's text with torch.jit, never runs it as Python: even a
    // reference that never passed validation cannot run an import line's other statements.
    void pythonGlueScriptsTheReference()
    {
        const QString marker = m_work.filePath(QStringLiteral("pwned-reference"));
        const std::string reference = "import torch; import os; os.system('touch " +
                                      marker.toStdString() +
                                      "')\nfrom torch import Tensor\n\n\ndef qref_reference(x: "
                                      "Tensor) -> Tensor:\n    return x + 1.0\n";
        const Run r = importOp(QStringLiteral("qref"), "m", reference, marker);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY(r.output.contains(QStringLiteral("y [2.0, 2.0, 2.0]")));
        QVERIFY(!QFileInfo::exists(marker));
        // A compiled graph that writes a file is refused by the glue itself.
        const Run saving = importOp(
            QStringLiteral("qsave"), "m",
            referenceFor("qsave", "x",
                         "    torch.save(x, '" + marker.toStdString() + "')\n    return x + 1.0\n"),
            marker);
        QVERIFY2(saving.exitCode != 0 && saving.output.contains(QStringLiteral("aten::save")),
                 qPrintable(saving.output));
        QVERIFY(!QFileInfo::exists(marker));
    }

    void randomHostileTextIsDataOnly()
    {
        const quint32 seed = qEnvironmentVariableIsSet("PTOWB_FUZZ_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("PTOWB_FUZZ_SEED"))
                                 : 20261130u;
        QRandomGenerator random(seed);
        nlohmann::json cases = nlohmann::json::array();
        std::vector<std::string> allTexts;
        const int count = 120;
        for (int k = 0; k < count; ++k) {
            const HostileOp op = randomHostileOp(random);
            const std::string &name = op.name, &reference = op.reference;
            const Texts& texts = op.texts;
            const QString dir = m_work.filePath(QStringLiteral("random/%1").arg(k));
            const std::string module = pythonModule(dir, op.json(), reference, name);
            const std::string twin =
                pythonModule(dir + QStringLiteral("-twin"), op.twinJson(), reference, name);
            QVERIFY2(
                !module.empty() && !twin.empty(),
                qPrintable(QStringLiteral("op %1 (seed %2) does not validate").arg(k).arg(seed)));
            writeFile(dir + QStringLiteral("/module.py"), module);
            writeFile(dir + QStringLiteral("/twin.py"), twin);
            cases.push_back(
                {{"module", (dir + QStringLiteral("/module.py")).toStdString()},
                 {"twin", (dir + QStringLiteral("/twin.py")).toStdString()},
                 {"texts", {texts.doc, texts.strDefault, texts.message, texts.ruleString}}});
            for (const std::string& t : {texts.doc, texts.inputDoc, texts.paramDoc,
                                         texts.strDefault, texts.message, texts.ruleString})
                allTexts.push_back(t);
        }
        writeFile(m_work.filePath(QStringLiteral("cases.json")), cases.dump());
        writeFile(m_work.filePath(QStringLiteral("check.py")), kCheckScript);
        const Run python =
            run(QStringLiteral(PTOWB_PYTHON), {m_work.filePath(QStringLiteral("check.py")),
                                               m_work.filePath(QStringLiteral("cases.json"))});
        QVERIFY2(python.exitCode == 0,
                 qPrintable(QStringLiteral("seed %1\n%2").arg(seed).arg(python.output)));
        QVERIFY(python.output.contains(QStringLiteral("checked %1 failures 0").arg(count)));

        // C++: every text as cppCharLiteral and cppStringLiteral, printed back by a compiled
        // program.
        std::string program = "#include <cstdio>\n#include <string>\nint main() {\n";
        std::string expected;
        for (const std::string& t : allTexts) {
            program += "    std::fwrite(" + codegen::cppCharLiteral(t) + ", 1, " +
                       std::to_string(t.size()) + ", stdout);\n";
            program += "    std::fputs(" + codegen::cppStringLiteral(t) +
                       ".size() == " + std::to_string(t.size()) + " ? \"|\" : \"#\", stdout);\n";
            expected += t + "|";
        }
        program += "}\n";
        writeFile(m_work.filePath(QStringLiteral("literals.cpp")), program);
        const Run compile =
            run(QStringLiteral(PTOWB_CXX),
                {QStringLiteral("-std=c++20"), QStringLiteral("-Wall"), QStringLiteral("-Werror"),
                 QStringLiteral("-o"), m_work.filePath(QStringLiteral("literals")),
                 m_work.filePath(QStringLiteral("literals.cpp"))});
        QVERIFY2(compile.exitCode == 0, qPrintable(compile.output));
        QProcess printer;
        printer.start(m_work.filePath(QStringLiteral("literals")), {});
        QVERIFY(printer.waitForFinished(30000));
        QVERIFY(printer.readAllStandardOutput().toStdString() == expected);
    }
};

QTEST_GUILESS_MAIN(TestGlueEscaping)
#include "tst_glue_escaping.moc"
