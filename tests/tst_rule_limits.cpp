// The rule language on hostile op.json files: no crash, no hang, every size checked. Regressions:
// a 5,000-term '+' chain crashed case evaluation (recursion per operator); 8,000 nested
// parentheses; `len([] * 9223372036854775807) == 0` looped 2^63 times in validate; an output
// rule of 2 TiB or [2^63-1, 2^63-1] validated and then aborted run/verify with an uncaught
// c10::Error. Each is now a diagnostic at validate, before anything is allocated or run.
#include "rules/rule.h"
#include "rules/rule_parser.h"
#include "spec/op_spec_loader.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace ptowb;

namespace {

QString sample(const char* file)
{
    return QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu/") + QLatin1String(file);
}

nlohmann::json scaleGelu()
{
    QFile f(sample("op.json"));
    if (!f.open(QIODevice::ReadOnly)) qFatal("no scale_gelu");
    return nlohmann::json::parse(f.readAll().toStdString());
}

// A scale_gelu project in `dir` with op.json changed by `edit`.
QString project(const QTemporaryDir& dir, const std::function<void(nlohmann::json&)>& edit)
{
    for (const char* f : {"kernel.py", "reference.py"})
        QFile::copy(sample(f), dir.filePath(QLatin1String(f)));
    nlohmann::json op = scaleGelu();
    edit(op);
    QFile out(dir.filePath(QStringLiteral("op.json")));
    if (!out.open(QIODevice::WriteOnly)) qFatal("cannot write op.json");
    out.write(QByteArray::fromStdString(op.dump(2)));
    return dir.path();
}

SpecLoadResult load(const QString& folder)
{
    QFile f(folder + QStringLiteral("/op.json"));
    f.open(QIODevice::ReadOnly);
    return loadOpSpecText(f.readAll().toStdString(), "op.json", folder.toStdString());
}

QString diagnostics(const SpecLoadResult& r)
{
    QString out;
    for (const Diagnostic& d : r.diagnostics)
        out += QString::fromStdString(formatDiagnostic(d) + " [" + d.code + "]\n");
    return out;
}

struct CliRun
{
    int exitCode = -1;
    bool crashed = false;
    QString output;
};

CliRun cli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(120000)) p.kill();
    p.waitForFinished();
    return {p.exitCode(), p.exitStatus() != QProcess::NormalExit, QString::fromUtf8(p.readAll())};
}

} // namespace

class TestRuleLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void longChainInAConstraint()
    {
        QTemporaryDir dir;
        std::string chain = "channels";
        for (int k = 0; k < 5000; ++k)
            chain += " + 1";
        const QString folder = project(
            dir, [&](nlohmann::json& op) { op["constraints"][0]["check"] = chain + " > 0"; });
        const SpecLoadResult r = load(folder);
        QVERIFY(!r.usable());
        QVERIFY2(diagnostics(r).contains(QStringLiteral("nested more than 256 levels deep")),
                 qPrintable(diagnostics(r)));
        QCOMPARE(r.diagnostics.front().pointer, std::string("/constraints/0/check"));
        const CliRun run = cli(
            {QStringLiteral("run"), folder, QStringLiteral("--backend"), QStringLiteral("ref")});
        QVERIFY2(!run.crashed && run.exitCode == 1, qPrintable(run.output));
    }

    void deepParentheses()
    {
        const std::string rule = std::string(8000, '(') + "1" + std::string(8000, ')');
        auto compiled = rules::Rule::compile(rule, {});
        QVERIFY(std::holds_alternative<std::vector<rules::RuleError>>(compiled));
        QCOMPARE(std::get<std::vector<rules::RuleError>>(compiled).front().code,
                 std::string("rule.too-deep"));
    }

    // The tallest tree the parser accepts is checked and evaluated on a thread with a small stack.
    void tallestRuleOnASmallStack()
    {
        std::string chain = "channels";
        for (int k = 1; k < rules::kMaxRuleHeight; ++k)
            chain += " + 1";
        rules::RuleScope scope;
        scope.params = {{"channels", rules::Type::Int}};
        const std::vector<rules::Value> params{rules::Value::ofInt(1)};
        std::string result;
        QThread* thread = QThread::create([&] {
            auto compiled = rules::Rule::compile(chain, scope);
            if (!std::holds_alternative<rules::Rule>(compiled)) return;
            auto value = std::get<rules::Rule>(compiled).evaluate({{}, params});
            result = std::holds_alternative<rules::Value>(value)
                         ? std::get<rules::Value>(value).toString()
                         : std::get<rules::RuleError>(value).message;
        });
        thread->setStackSize(1u << 20);
        thread->start();
        QVERIFY(thread->wait(10000));
        delete thread;
        QCOMPARE(result, std::to_string(rules::kMaxRuleHeight));
        chain += " + 1";
        QVERIFY(std::holds_alternative<std::vector<rules::RuleError>>(
            rules::Rule::compile(chain, scope)));
    }

    void repeatingAnEmptyListDoesNotHang()
    {
        QTemporaryDir dir;
        const QString folder = project(dir, [](nlohmann::json& op) {
            op["constraints"].push_back(
                {{"check", "len([] * 9223372036854775807) == 0"}, {"message", "never fails"}});
        });
        const SpecLoadResult r = load(folder); // returning at all is the point
        QVERIFY2(r.usable(), qPrintable(diagnostics(r)));
    }

    void hugeOutputsAreCleanErrors_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("message");
        QTest::newRow("2 TiB") << "[x.shape[0] * 137438953472, channels]"
                               << "more than 2^31 elements";
        QTest::newRow("2^63-1 squared") << "[9223372036854775807, 9223372036854775807]"
                                        << "overflows 64 bits";
        QTest::newRow("2^63-1 once") << "[9223372036854775807]"
                                     << "overflows 64 bits";
    }

    void hugeOutputsAreCleanErrors()
    {
        QFETCH(QString, shape);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString folder = project(
            dir, [&](nlohmann::json& op) { op["outputs"][0]["shape"] = shape.toStdString(); });
        const SpecLoadResult r = load(folder);
        QVERIFY(!r.usable());
        QVERIFY2(diagnostics(r).contains(message), qPrintable(diagnostics(r)));
        for (const QStringList& args :
             {QStringList{QStringLiteral("run"), folder, QStringLiteral("--backend"),
                          QStringLiteral("ref")},
              QStringList{QStringLiteral("verify"), folder},
              QStringList{QStringLiteral("redeploy"), folder}}) {
            const CliRun run = cli(args);
            QVERIFY2(!run.crashed && run.exitCode == 1,
                     qPrintable(args.first() + QStringLiteral(": ") + run.output));
            QVERIFY2(run.output.contains(message), qPrintable(run.output));
        }
    }
};

QTEST_GUILESS_MAIN(TestRuleLimits)
#include "tst_rule_limits.moc"
