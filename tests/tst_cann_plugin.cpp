// The generated ONNX plugin, compiled as C++11 with the old ABI and linked with the doubles of
// tests/cann_api, reads attributes from the one JSON string "attribute" that Ascend's parser
// hands a plugin, built here the way the parser builds it (parser/common/convert/
// message2operator.cc and pb2json.cc: proto3 presence, "f" printed with %g, "s" C-escaped):
// every parameter type round-trips (scale=0.5 stays 0.5), zeros the parser leaves out come back
// as zeros, absent optional attributes take their defaults, ptowb_record is kept, and a
// missing required attribute or one of another ONNX type fails the conversion.
#include "cann_parser_json.h"
#include "cann_test_support.h"
#include "codegen/cpp_rule_emitter.h"
#include "codegen/glue_facts.h"
#include "text/template_text.h"

#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <nlohmann/json.hpp>

using namespace ptowb;
using namespace cann_test;
using rules::Value;

namespace {

// Distinct values of every type: `zeros` gives those the parser leaves out of the JSON.
Value sample(ParamType type, bool zeros, const std::optional<Value>& fallback)
{
    switch (type) {
    case ParamType::Bool:
        return Value::ofBool(zeros ? false : !(fallback && fallback->asBool()));
    case ParamType::Int:
        return Value::ofInt(zeros ? 0 : 42);
    case ParamType::Float:
        return Value::ofFloat(zeros ? 0.0 : 0.5);
    case ParamType::Str:
        return Value::ofStr(zeros ? "" : "it's \"odd\" \\ */\n\t\xc3\xa9\x01 ok");
    case ParamType::IntList:
        return zeros ? Value::ofShape({}) : Value::ofShape({2, -3, 7});
    case ParamType::FloatList:
        return zeros ? Value::ofFloatList({}) : Value::ofFloatList({0.5, -2.25, 0.1});
    }
    return {};
}

// Reads each parameter back from op_dest with the getter of its type.
std::string printer(const OpSpec& spec)
{
    std::string out;
    for (const auto& p : spec.params) {
        const std::string name = codegen::cppCharLiteral(p.name);
        static const char* const kTypes[] = {"bool",
                                             "std::int64_t",
                                             "float",
                                             "ge::AscendString",
                                             "std::vector<std::int64_t>",
                                             "std::vector<float>"};
        static const char* const kShow[] = {
            "(v ? \"true\" : \"false\")", "v", "floatText(v)", "hex(v)", "list(v)", "floats(v)"};
        out += "        { " + std::string(kTypes[int(p.type)]) + " v; if (dest.GetAttr(" + name +
               ", v) == ge::GRAPH_SUCCESS) std::cout << " + codegen::cppCharLiteral(p.name + "=") +
               " << " + kShow[int(p.type)] + " << '\\n'; else std::cout << " +
               codegen::cppCharLiteral(p.name + " absent\n") + "; }\n";
    }
    return out;
}

const char* const kDriver = R"CPP(
#include "cann_doubles.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

inline std::string floatText(float f) { char b[32]; std::snprintf(b, sizeof b, "%.9g", double(f)); return b; }
inline std::string hex(const ge::AscendString& s)
{
    std::string out; char b[4];
    for (std::size_t k = 0; k < s.GetLength(); ++k) { std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(s.GetString()[k])); out += b; }
    return out;
}
inline std::string list(const std::vector<std::int64_t>& v)
{
    std::string out; for (std::size_t k = 0; k < v.size(); ++k) out += (k ? "," : "") + std::to_string(static_cast<long long>(v[k])); return "[" + out + "]";
}
inline std::string floats(const std::vector<float>& v)
{
    std::string out; for (std::size_t k = 0; k < v.size(); ++k) out += (k ? "," : "") + floatText(v[k]); return "[" + out + "]";
}

int main(int argc, char** argv)
{
    std::cout << "registered " << ptowb_test::parserOpType(@ORIGIN@) << '\n';
    const domi::ParseParamByOpFunc parse = ptowb_test::parseFunction(@ORIGIN@);
    if (!parse) return 1;
    for (int k = 1; k < argc; ++k) {
        ge::Operator src("node", @ORIGIN@);
        if (std::string(argv[k]) != "-") {
            std::ifstream in(argv[k]);
            std::stringstream text;
            text << in.rdbuf();
            src.SetAttr("attribute", text.str()); // as message2operator.cc sets it
        }
        ge::Operator dest("node", @OP_TYPE@);
        if (parse(src, dest) != domi::SUCCESS) {
            std::cout << "FAILED\n";
            continue;
        }
        std::cout << "SUCCESS\n";
@PRINT@
        ge::AscendString record;
        if (dest.GetAttr("ptowb_record", record) == ge::GRAPH_SUCCESS) std::cout << "ptowb_record=" << hex(record) << '\n';
        else std::cout << "ptowb_record absent\n";
    }
    return 0;
}
)CPP";

// The op's plugin linked with the doubles and a driver that parses each file it is given.
QString buildDriver(const ProjectSources& sources, const QTemporaryDir& dir,
                    const QStringList& extra = {})
{
    const OpSpec& spec = sources.loaded.spec;
    const auto files = cann_test::cannFiles(sources);
    const auto* plugin = cann_test::findFile(files, "_plugin.cc");
    if (!plugin ||
        !cann_test::writeText(dir.filePath(QStringLiteral("plugin.cc")), plugin->content))
        return {};
    const std::string driver =
        fillTemplate(kDriver, {{"ORIGIN", codegen::cppCharLiteral(spec.ns + "::1::" + spec.opType)},
                               {"OP_TYPE", codegen::cppCharLiteral(spec.opType)},
                               {"PRINT", printer(spec)}});
    if (!cann_test::writeText(dir.filePath(QStringLiteral("driver.cc")), driver)) return {};
    const QStringList args =
        extra + QStringList{QStringLiteral("-O0"),
                            QStringLiteral("-I") + cann_test::declarationsDir() +
                                QStringLiteral("/doubles"),
                            dir.filePath(QStringLiteral("plugin.cc")),
                            dir.filePath(QStringLiteral("driver.cc"))};
    const QString binary = dir.filePath(QStringLiteral("driver"));
    const cann_test::Run built = cann_test::compile(
        cann_test::cannFlags(QStringLiteral("c++11")) + cann_test::apiFlags(false) + args +
        cann_test::doubleSources() + QStringList{QStringLiteral("-o"), binary});
    if (!built.ok) return qWarning("%s", qPrintable(built.output.left(8000))), QString();
    return binary;
}

} // namespace

class TestCannPlugin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void attributesRoundTrip_data()
    {
        QTest::addColumn<QString>("folder");
        for (const QString& folder : cann_test::opFolders())
            QTest::newRow(qPrintable(QFileInfo(folder).fileName())) << folder;
    }

    void attributesRoundTrip()
    {
        QFETCH(QString, folder);
        const auto sources = cann_test::sourcesOf(folder);
        const OpSpec& spec = sources.loaded.spec;
        const std::string record = codegen::glueFacts(sources.glueSource()).record;

        struct Round
        {
            std::string name;
            std::optional<nlohmann::json> json; // none: op_src has no "attribute" at all
            std::vector<std::string> expected;
        };
        std::vector<Round> rounds;
        auto round = [&](const std::string& name, bool zeros, bool optionals, bool withRecord,
                         int skip, int mistype) {
            Round r{name,
                    nlohmann::json{
                        {"attribute",
                         nlohmann::json::array({{{"name", "unrelated"}, {"type", 2}, {"i", 9}}})}},
                    {"SUCCESS"}};
            for (std::size_t k = 0; k < spec.params.size(); ++k) {
                const ParamSpec& p = spec.params[k];
                const bool given = (optionals || !p.defaultValue) && int(k) != skip;
                // A skipped required attribute fails the round; its value is never printed.
                const Value v = given || !p.defaultValue ? sample(p.type, zeros, p.defaultValue)
                                                         : *p.defaultValue;
                if (given) {
                    nlohmann::json a = parserAttribute(p.name, p.type, v);
                    if (int(k) == mistype) a["type"] = p.type == ParamType::Float ? 2 : 1;
                    (*r.json)["attribute"].push_back(a);
                }
                r.expected.push_back(p.name + "=" + canonical(p.type, v, given));
            }
            if (withRecord)
                (*r.json)["attribute"].push_back(
                    parserAttribute("ptowb_record", ParamType::Str, Value::ofStr(record)));
            r.expected.push_back(withRecord ? "ptowb_record=" + hex(record)
                                            : "ptowb_record absent");
            const bool fails =
                (skip >= 0 && !spec.params[std::size_t(skip)].defaultValue) || mistype >= 0;
            if (fails) r.expected = {"FAILED"};
            rounds.push_back(r);
        };
        round("every attribute", false, true, true, -1, -1);
        round("zeros the parser leaves out", true, true, true, -1, -1);
        round("required only: defaults", false, false, false, -1, -1);
        int required = -1;
        for (std::size_t k = 0; k < spec.params.size(); ++k)
            if (!spec.params[k].defaultValue && required < 0) required = int(k);
        if (required >= 0) round("a required attribute missing", false, true, true, required, -1);
        if (!spec.params.empty())
            round("an attribute of another ONNX type", false, true, true, -1,
                  int(spec.params.size()) - 1);
        Round none{"no attributes at all", std::nullopt, {"SUCCESS"}};
        for (const auto& p : spec.params)
            none.expected.push_back(
                p.defaultValue ? p.name + "=" + canonical(p.type, *p.defaultValue, false) : "");
        none.expected.push_back("ptowb_record absent");
        if (required >= 0) none.expected = {"FAILED"};
        rounds.push_back(none);

        QTemporaryDir dir;
        const QString binary = buildDriver(sources, dir);
        QVERIFY(!binary.isEmpty());

        QStringList inputs;
        std::vector<std::string> expected{"registered " + spec.opType};
        for (std::size_t k = 0; k < rounds.size(); ++k) {
            QString path = QStringLiteral("-");
            if (rounds[k].json) {
                path = dir.filePath(QStringLiteral("round%1.json").arg(k));
                QVERIFY(cann_test::writeText(path, rounds[k].json->dump(2))); // the parser's indent
            }
            inputs << path;
            for (const auto& line : rounds[k].expected)
                if (!line.empty()) expected.push_back(line);
        }
        const cann_test::Run ran = cann_test::run(binary, inputs, {}, true);
        QVERIFY2(ran.ok, qPrintable(ran.output));
        const QStringList lines = ran.output.split('\n', Qt::SkipEmptyParts);
        for (std::size_t k = 0; k < std::max(expected.size(), std::size_t(lines.size())); ++k)
            QVERIFY2(k < expected.size() && int(k) < lines.size() &&
                         lines[int(k)].toStdString() == expected[k],
                     qPrintable(
                         QStringLiteral("line %1: got %2, expected %3\nfull output:\n%4")
                             .arg(k)
                             .arg(int(k) < lines.size() ? lines[int(k)] : QStringLiteral("(none)"),
                                  k < expected.size() ? QString::fromStdString(expected[k])
                                                      : QStringLiteral("(none)"),
                                  ran.output)));
        // The issue's case: an optional float given in the model is the model's, not the default.
        if (spec.paramIndex("scale") >= 0) QVERIFY(lines.contains(QStringLiteral("scale=0.5")));
        // A failed conversion says why, naming the attribute.
        if (required >= 0)
            QVERIFY2(ran.errors.contains(
                         QString::fromStdString("lacks the required attribute '" +
                                                spec.params[std::size_t(required)].name + "'")),
                     qPrintable(ran.errors));
        if (!spec.params.empty())
            QVERIFY2(ran.errors.contains(QString::fromStdString(
                         "attribute '" + spec.params.back().name + "' must be an ONNX")),
                     qPrintable(ran.errors));
        qInfo("%d rounds, %d attribute values checked", int(rounds.size()), int(expected.size()));
    }

    // The reader is bounded and never trusts the model: malformed, deep, truncated or mutated
    // JSON fails the conversion or parses; it never crashes the parser's process.
    void hostileJsonNeverCrashes()
    {
        const auto sources = cann_test::sourcesOf(QStringLiteral(PTOWB_TEST_DATA "/glue_hostile"));
        QTemporaryDir dir;
        // With AddressSanitizer and UBSan: a read past the text is a failure, not luck.
        const QString binary = buildDriver(sources, dir,
                                           {QStringLiteral("-fsanitize=address,undefined"),
                                            QStringLiteral("-fno-sanitize-recover=all")});
        QVERIFY(!binary.isEmpty());
        const std::string valid =
            nlohmann::json{{"attribute",
                            {{{"name", "n"}, {"type", 2}, {"i", 3}},
                             {{"name", "mode"}, {"type", 3}, {"s", "a\\\"b\\001"}},
                             {{"name", "weights"}, {"type", 6}, {"floats", {0.5, 1.5}}}}}}
                .dump(2);
        std::vector<std::string> inputs{
            "",
            "{",
            "[",
            "{\"attribute\": 3}",
            "{\"attribute\": [1, \"x\", null]}",
            std::string(100000, '['),
            "{\"attribute\": [{\"name\": \"n\", \"type\": 2, \"i\": 99999999999999999999}]}",
            "{\"attribute\": [{\"name\": \"n\", \"type\": 2, \"i\": 1.5}]}",
            "\"\\u12",
            "\"\\ud800\\u0041\"",
            "{\"attribute\": [{\"name\": \"mode\", \"type\": 3, \"s\": \"\\\\777\\\\x\"}], \"n\": "
            "1}",
            "{\"attribute\": []} trailing",
            valid};
        std::uint64_t state = 7;
        for (int k = 0; k < 300; ++k) { // byte mutations of a valid document, reproducibly
            std::string m = valid;
            for (int edits = 0; edits < 1 + k % 4; ++edits) {
                state = state * 6364136223846793005ULL + 1442695040888963407ULL;
                const std::size_t at = std::size_t(state >> 33) % m.size();
                static const char kChars[] = "{}[]\",:\\0-e.x\x01\xff";
                const char c = kChars[(state >> 20) % (sizeof kChars - 1)];
                if (k % 3 == 0)
                    m.erase(at, 1);
                else if (k % 3 == 1)
                    m.insert(at, 1, c);
                else
                    m[at] = c;
            }
            inputs.push_back(m);
        }
        QStringList files;
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            files << dir.filePath(QStringLiteral("hostile%1.json").arg(k));
            QVERIFY(cann_test::writeText(files.back(), inputs[k]));
        }
        const cann_test::Run ran = cann_test::run(binary, files, {}, true);
        QVERIFY2(ran.ok, qPrintable(ran.errors.right(2000)));
        const QStringList lines = ran.output.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(
            int(lines.count(QStringLiteral("FAILED")) + lines.count(QStringLiteral("SUCCESS"))),
            int(inputs.size()));
        QVERIFY(lines.count(QStringLiteral("SUCCESS")) >= 1); // the valid document
        qInfo("%d hostile attribute strings, %d rejected", int(inputs.size()),
              int(lines.count(QStringLiteral("FAILED"))));
    }
};

QTEST_GUILESS_MAIN(TestCannPlugin)
#include "tst_cann_plugin.moc"
