// Every generated file holds description text as data only. Ops with random hostile text in
// every string field are generated beside the same ops with plain text, and each file must have
// the plain twin's skeleton: C++, Python and CMake tokens outside literals and comments, the
// JSON files' structure, the ini files' lines and keys, the README's headings, fences and tables.
// A file type without a check fails the test, so a new generator cannot skip it.
#include "codegen/glue.h"
#include "hostile_ops.h"
#include "source_skeleton.h"
#include "spec/op_spec_loader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace ptowb;
using namespace ptowb::testing;

namespace {

void writeFile(const QString& path, const std::string& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(text.data(), qint64(text.size()));
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Every file of the glue of the op in `json`, by path; empty when it does not validate.
std::map<std::string, std::string> glueOf(const QString& dir, const std::string& json,
                                          const std::string& reference, const std::string& name)
{
    const std::string kernel = "def " + name + "_kernel():\n    pass\n";
    writeFile(dir + QStringLiteral("/op.json"), json);
    writeFile(dir + QStringLiteral("/kernel.py"), kernel);
    writeFile(dir + QStringLiteral("/reference.py"), reference);
    const SpecLoadResult loaded = loadOpSpecText(json, "op.json", dir.toStdString());
    std::map<std::string, std::string> files;
    if (!loaded.usable()) return files;
    const codegen::GlueSource source{loaded.spec, json, kernel, reference};
    for (auto& f : codegen::generateGlue(source))
        files[f.path] = std::move(f.content);
    files["README.md"] = codegen::generatePackageReadme(source); // written by export
    return files;
}

// JSON with every string value as "<s>": keys and nesting stay.
nlohmann::json jsonShape(const nlohmann::json& j)
{
    if (j.is_string()) return "<s>";
    if (j.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& v : j)
            out.push_back(jsonShape(v));
        return out;
    }
    if (j.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [key, value] : j.items())
            out[key] = jsonShape(value);
        return out;
    }
    return j;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t nl = text.find('\n', start);
        out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    return out;
}

// What of a file must not change with the text: "" when the twin has the same, else why not.
std::string compareStructure(const std::string& path, const std::string& hostile,
                             const std::string& plain)
{
    const bool cpp = endsWith(path, ".cpp") || endsWith(path, ".cc") || endsWith(path, ".h");
    const bool python = endsWith(path, ".py");
    const bool cmake = endsWith(path, "CMakeLists.txt") || endsWith(path, ".cmake");
    if (cpp || python || cmake) {
        const SourceLanguage language = cpp      ? SourceLanguage::Cpp
                                        : python ? SourceLanguage::Python
                                                 : SourceLanguage::CMake;
        std::string error, twinError;
        const auto tokens = sourceSkeleton(language, hostile, error);
        const auto twin = sourceSkeleton(language, plain, twinError);
        if (!error.empty() || !twinError.empty()) return "does not tokenize: " + error + twinError;
        if (tokens == twin) return {};
        std::size_t k = 0;
        while (k < tokens.size() && k < twin.size() && tokens[k] == twin[k])
            ++k;
        std::string context;
        for (std::size_t c = k > 8 ? k - 8 : 0; c < k; ++c)
            context += tokens[c] + " ";
        return "tokens differ at " + std::to_string(k) + ", after '" + context + "': '" +
               (k < tokens.size() ? tokens[k] : "<end>") + "' instead of '" +
               (k < twin.size() ? twin[k] : "<end>") + "'";
    }
    if (endsWith(path, ".json")) {
        const auto j = nlohmann::json::parse(hostile, nullptr, false);
        const auto t = nlohmann::json::parse(plain, nullptr, false);
        if (j.is_discarded()) return "does not parse as JSON";
        return jsonShape(j) == jsonShape(t) ? std::string() : "another JSON structure";
    }
    if (endsWith(path, ".ini")) {
        const auto a = lines(hostile), b = lines(plain);
        if (a.size() != b.size()) return "another number of lines";
        // A comment line stays one (its text is the op's hash); any other keeps its key.
        auto key = [](const std::string& line) {
            return line.rfind('#', 0) == 0 || line.rfind(';', 0) == 0
                       ? line.substr(0, 1)
                       : line.substr(0, line.find('='));
        };
        for (std::size_t k = 0; k < a.size(); ++k)
            if (key(a[k]) != key(b[k]))
                return "line " + std::to_string(k + 1) + " has another key: " + a[k];
        return {};
    }
    if (endsWith(path, ".md")) {
        // Headings (also indented up to three spaces, or underlined), code fences, table rows
        // and HTML blocks: what description text could forge.
        auto structure = [](const std::string& text) {
            std::vector<std::string> out;
            for (const std::string& raw : lines(text)) {
                const std::size_t indent = std::min(raw.find_first_not_of(' '), raw.size());
                const std::string line = indent <= 3 ? raw.substr(indent) : std::string();
                if (line.rfind("```", 0) == 0 || line.rfind("~~~", 0) == 0)
                    out.push_back("fence");
                else if (line.rfind('#', 0) == 0 || line.rfind('|', 0) == 0 ||
                         line.rfind('<', 0) == 0)
                    out.push_back(line.substr(0, 1));
                else if (!line.empty() && line.find_first_not_of('=') == std::string::npos)
                    out.push_back("=");
                else if (line.size() >= 3 && line.find_first_not_of('-') == std::string::npos)
                    out.push_back("-");
            }
            return out;
        };
        return structure(hostile) == structure(plain) ? std::string()
                                                      : "other headings, fences or tables";
    }
    return "no check for this kind of file";
}

} // namespace

class TestGlueTokens : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The check itself: text kept in a literal or a comment passes, text that leaves one fails.
    void structureTellsDataFromCode()
    {
        using Case = std::pair<const char*, std::pair<const char*, const char*>>;
        const Case same[] = {
            {"a.cpp", {"f(\"x\\\" y\"); // note\n", "f(\"plain\"); // note\n"}},
            {"a.cpp",
             {"auto s = R\"(x\" \\ y)\"; /* sha256 "
              "abababababababababababababababababababababababababababababababab */",
              "auto s = R\"(plain)\"; /* sha256 "
              "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd */"}},
            {"a.py", {"x = '''a\n\\'''' + \"\\\"\"  # c\n", "x = '''p''' + \"p\"  # c\n"}},
            {"CMakeLists.txt", {"set(A \"x\\\" ) y\") # c\n", "set(A \"p\") # c\n"}},
            {"a.json", {"{\"doc\": \"}{\"}", "{\"doc\": \"p\"}"}},
            {"a.ini", {"[op]\ndoc=x = y\n", "[op]\ndoc=p\n"}},
            {"README.md", {"# op\n\\# not a heading\n", "# op\nplain\n"}},
        };
        for (const auto& [path, texts] : same)
            QVERIFY2(compareStructure(path, texts.first, texts.second).empty(), path);
        const Case differ[] = {
            {"a.cpp", {"f(\"x\"); system(\"id\"); g(\"\");", "f(\"plain\");"}},
            {"a.cpp", {"// doc: x\nsystem();\n", "// doc: plain\n"}},
            {"a.cpp", {"// doc: x\\\nsystem();\n", "// doc: p\n"}},
            {"a.py", {"x = '''a''' + __import__('os')\n", "x = '''p'''\n"}},
            {"a.py", {"# doc: x\rimport os\n", "# doc: p\n"}},
            {"CMakeLists.txt", {"set(A \"x\")\nexecute_process()\n", "set(A \"p\")\n"}},
            {"CMakeLists.txt", {"set(A \"${HOME}\")\n", "set(A \"p\")\n"}},
            {"a.json", {"{\"doc\": \"x\", \"more\": 1}", "{\"doc\": \"p\"}"}},
            {"a.ini", {"[op]\ndoc=x\nimpl=y\n", "[op]\ndoc=p\n"}},
            {"README.md", {"# op\n```\nrun me\n", "# op\nplain\n"}},
            {"README.md", {"# op\nx\n===\n", "# op\nplain\n"}},
            {"README.md", {"# op\n<script>\n", "# op\nplain\n"}},
            {"a.bin", {"", ""}},
        };
        for (const auto& [path, texts] : differ)
            QVERIFY2(!compareStructure(path, texts.first, texts.second).empty(),
                     qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(path),
                                                             QLatin1String(texts.first))));
    }

    void everyFileHoldsTheTextAsData()
    {
        const quint32 seed = qEnvironmentVariableIsSet("PTOWB_FUZZ_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("PTOWB_FUZZ_SEED"))
                                 : 20261201u;
        QRandomGenerator random(seed);
        QTemporaryDir work;
        const int count = 200;
        std::size_t filesChecked = 0;
        std::set<std::string> kinds;
        for (int k = 0; k < count; ++k) {
            const HostileOp op = randomHostileOp(random);
            const std::string &name = op.name, &reference = op.reference;
            const QString dir = work.filePath(QString::number(k));
            const auto files = glueOf(dir, op.json(), reference, name);
            const auto twins =
                glueOf(dir + QStringLiteral("-twin"), op.twinJson(), reference, name);
            QVERIFY2(
                !files.empty() && !twins.empty(),
                qPrintable(QStringLiteral("op %1 (seed %2) does not validate").arg(k).arg(seed)));
            QCOMPARE(files.size(), twins.size());
            for (const auto& [path, content] : files) {
                const auto twin = twins.find(path);
                QVERIFY2(twin != twins.end(), path.c_str());
                const std::string why = compareStructure(path, content, twin->second);
                QVERIFY2(why.empty(), qPrintable(QStringLiteral("op %1 (seed %2), %3: %4")
                                                     .arg(k)
                                                     .arg(seed)
                                                     .arg(QString::fromStdString(path),
                                                          QString::fromStdString(why))));
                ++filesChecked;
                kinds.insert(path.substr(path.find_last_of("./") + 1));
            }
        }
        std::string kindList;
        for (const std::string& kind : kinds)
            kindList += kind + " ";
        qInfo("%zu generated files of %d hostile ops have their plain twins' structure (%s)",
              filesChecked, count, kindList.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGlueTokens)
#include "tst_glue_tokens.moc"
