// Every generated CANN source compiles as CANN's custom-op build compiles it: for every sample
// project and the hostile op, op_proto, op_host (as the OpDef library, and with OP_PROTO_LIB
// as the op proto library) and the ONNX plugin, as C++11 and C++17 with the old libstdc++ ABI
// and warnings as errors, against the declarations in tests/cann_api (written here after CANN's
// documented API: the most faithful headers a machine without CANN has) — and against real CANN
// headers too when CANN_INCLUDE_DIRS named them at configure time. The output says which. The
// package's cann/CMakeLists.txt then builds and
// installs the libraries against a stand-in toolkit made of those declarations and doubles.
#include "cann_test_support.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace cann_test;

namespace {

struct Unit
{
    std::string file;
    QStringList defines;
};

// The translation units of an op's cann/ folder, with the macros CANN builds them with.
std::vector<Unit> unitsOf(const ptowb::OpSpec& spec)
{
    return {{"cann/op_proto/" + spec.name + "_proto.cc", {}},
            {"cann/op_host/" + spec.name + ".cpp", {}},
            {"cann/op_host/" + spec.name + ".cpp", {QStringLiteral("-DOP_PROTO_LIB")}},
            {"cann/framework/onnx_plugin/" + spec.name + "_plugin.cc", {}}};
}

// Compiles every unit of the op in `folder`; returns how many compiled, or -1 after a failure.
int compileOp(const QString& folder, const QString& standard, bool realHeaders)
{
    const auto sources = sourcesOf(folder);
    if (!sources.usable()) return -1;
    QTemporaryDir dir;
    for (const auto& f : cannFiles(sources))
        if (!writeText(dir.filePath(QString::fromStdString(f.path)), f.content)) return -1;
    int compiled = 0;
    for (const Unit& unit : unitsOf(sources.loaded.spec)) {
        const QString source = dir.filePath(QString::fromStdString(unit.file));
        const Run r = compile(cannFlags(standard) + unit.defines + apiFlags(realHeaders) +
                              QStringList{QStringLiteral("-c"), source, QStringLiteral("-o"),
                                          dir.filePath(QStringLiteral("unit.o"))});
        if (!r.ok) {
            qWarning("%s (%s%s):\n%s", qPrintable(source), qPrintable(standard),
                     qPrintable(unit.defines.join(' ')), qPrintable(r.output.left(6000)));
            return -1;
        }
        ++compiled;
    }
    return compiled;
}

} // namespace

class TestCannCompile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QStringList real = realCannIncludeDirs();
        qInfo("CANN headers: %s (tests/cann_api, declarations written after CANN's documented "
              "API)%s",
              qPrintable(declarationsDir()),
              real.isEmpty() ? "; no real CANN headers (CANN_INCLUDE_DIRS names none)"
                             : qPrintable(QStringLiteral(", and real CANN headers in ") +
                                          real.join(QStringLiteral(", "))));
    }

    void standalone_data()
    {
        QTest::addColumn<QString>("folder");
        for (const QString& folder : opFolders())
            QTest::newRow(qPrintable(QFileInfo(folder).fileName())) << folder;
    }

    // Nothing but the standard library, CANN's own headers and the package's own (a quoted
    // include found beside the including file): the package builds without ptowb.
    void standalone()
    {
        QFETCH(QString, folder);
        const auto files = cannFiles(sourcesOf(folder));
        const QRegularExpression include(QStringLiteral("^#include ([<\"])([^>\"]+)[>\"]"),
                                         QRegularExpression::MultilineOption);
        const QRegularExpression allowed(
            QStringLiteral("^(graph/operator_reg\\.h|register/op_def_registry\\.h|register/"
                           "register\\.h|[a-z_]+)$"));
        auto packaged = [&](const std::string& from, const QString& header) {
            const QString path = QDir::cleanPath(QFileInfo(QString::fromStdString(from)).path() +
                                                 QLatin1Char('/') + header);
            return findFile(files, path.toStdString()) != nullptr && path.startsWith("cann/");
        };
        int sources = 0;
        for (const auto& f : files) {
            if (f.path.find(".c") == std::string::npos && f.path.find(".h") == std::string::npos)
                continue; // .cc, .cpp and .h
            sources += f.path.find(".c") != std::string::npos;
            auto it = include.globalMatch(QString::fromStdString(f.content));
            while (it.hasNext()) {
                const auto match = it.next();
                const QString header = match.captured(2);
                QVERIFY2(allowed.match(header).hasMatch() ||
                             (match.captured(1) == QLatin1String("\"") && packaged(f.path, header)),
                         qPrintable(QString::fromStdString(f.path) + QStringLiteral(" includes ") +
                                    header));
            }
            QVERIFY2(f.content.find("ptowb::") == std::string::npos, f.path.c_str());
        }
        QCOMPARE(sources, 3);
        QVERIFY(findFile(files, "cann/CMakeLists.txt"));
    }

    // Attribute types as msopgen reads them: the JSON's per IR_ATTR_TYPE_MAP, the .ini's per
    // INI_ATTR_TYPE_MAP (msopgen's op_gen config); an unknown type is dropped with a warning.
    void attributeTypesFollowMsopgen_data() { standalone_data(); }

    void attributeTypesFollowMsopgen()
    {
        QFETCH(QString, folder);
        const auto sources = sourcesOf(folder);
        const auto files = cannFiles(sources);
        const ptowb::OpSpec& spec = sources.loaded.spec;
        static const char* const kJson[] = {"bool",   "int",      "float",
                                            "string", "list_int", "list_float"};
        static const char* const kIni[] = {"bool", "int", "float", "str", "listInt", "listFloat"};
        const auto json = nlohmann::json::parse(findFile(files, spec.name + ".json")->content);
        QCOMPARE(json[0]["attr"].size(), spec.params.size());
        const std::string& ini = findFile(files, spec.name + ".ini")->content;
        for (std::size_t k = 0; k < spec.params.size(); ++k) {
            const int type = int(spec.params[k].type);
            QCOMPARE(json[0]["attr"][k]["type"].get<std::string>(), std::string(kJson[type]));
            QVERIFY(ini.find("attr_" + spec.params[k].name + ".type=" + kIni[type] + "\n") !=
                    std::string::npos);
        }
    }

    void compiles_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("standard");
        QTest::addColumn<bool>("realHeaders");
        for (const bool real : {false, true}) {
            if (real && realCannIncludeDirs().isEmpty()) continue;
            for (const QString& folder : opFolders())
                for (const char* standard : {"c++11", "c++17"})
                    QTest::newRow(qPrintable(
                        QFileInfo(folder).fileName() + QStringLiteral(" ") +
                        QString::fromLatin1(standard) +
                        (real ? QStringLiteral(" real CANN") : QStringLiteral(" tests/cann_api"))))
                        << folder << QString::fromLatin1(standard) << real;
        }
    }

    void compiles()
    {
        QFETCH(QString, folder);
        QFETCH(QString, standard);
        QFETCH(bool, realHeaders);
        const int compiled = compileOp(folder, standard, realHeaders);
        QVERIFY(compiled > 0);
        (realHeaders ? m_compiledReal : m_compiled) += compiled;
    }

    // cmake -S cann, build, install: the libraries land where GE and ATC load custom ops from.
    void cmakeBuildsAndInstalls_data() { standalone_data(); }

    void cmakeBuildsAndInstalls()
    {
        QFETCH(QString, folder);
        QTemporaryDir dir;
        const QString toolkit = dir.filePath(QStringLiteral("toolkit"));
        QVERIFY(makeStandInToolkit(toolkit));
        const auto sources = sourcesOf(folder);
        for (const auto& f : cannFiles(sources))
            QVERIFY(
                writeText(dir.filePath(QStringLiteral("package/") + QString::fromStdString(f.path)),
                          f.content));
        const QString build = dir.filePath(QStringLiteral("build"));
        qunsetenv("ASCEND_OPP_PATH");
        Run r = run(QStringLiteral(PTOWB_CMAKE),
                    {QStringLiteral("-S"), dir.filePath(QStringLiteral("package/cann")),
                     QStringLiteral("-B"), build, QStringLiteral("-DASCEND_HOME_PATH=") + toolkit});
        QVERIFY2(r.ok, qPrintable(r.output));
        r = run(QStringLiteral(PTOWB_CMAKE), {QStringLiteral("--build"), build});
        QVERIFY2(r.ok, qPrintable(r.output));
        r = run(QStringLiteral(PTOWB_CMAKE), {QStringLiteral("--install"), build});
        QVERIFY2(r.ok, qPrintable(r.output));
        const ptowb::OpSpec& spec = sources.loaded.spec;
        const QString vendor =
            toolkit + QStringLiteral("/opp/vendors/") + QString::fromStdString(spec.ns);
        const QString package = QString::fromStdString(spec.ns + "_" + spec.name);
        const QString arch = QSysInfo::currentCpuArchitecture() == QLatin1String("x86_64")
                                 ? QStringLiteral("x86_64")
                                 : QSysInfo::currentCpuArchitecture();
        for (const QString& file :
             {QStringLiteral("op_proto/lib/linux/%1/lib%2_op_proto.so").arg(arch, package),
              QStringLiteral("op_proto/lib/linux/%1/lib%2_op_host.so").arg(arch, package),
              QStringLiteral("op_proto/inc/%1_proto.h").arg(QString::fromStdString(spec.name)),
              QStringLiteral("framework/onnx/lib%1_onnx_plugin.so").arg(package)})
            QVERIFY2(QFileInfo::exists(vendor + QLatin1Char('/') + file),
                     qPrintable(vendor + QLatin1Char('/') + file));
    }

    void cleanupTestCase()
    {
        qInfo("%d CANN translation units compiled against tests/cann_api, %d against real CANN "
              "headers",
              m_compiled, m_compiledReal);
    }

private:
    // A folder shaped like a CANN toolkit: the declarations as include/, and lib64/ with the
    // test doubles as libgraph.so beside empty libregister.so and libexe_graph.so.
    static bool makeStandInToolkit(const QString& toolkit)
    {
        if (!QDir().mkpath(toolkit + QStringLiteral("/lib64")) ||
            !QFile::link(declarationsDir(), toolkit + QStringLiteral("/include")))
            return false;
        Run r = compile(
            cannFlags(QStringLiteral("c++11")) + apiFlags(false) +
            QStringList{QStringLiteral("-shared")} + doubleSources() +
            QStringList{QStringLiteral("-o"), toolkit + QStringLiteral("/lib64/libgraph.so")});
        if (!r.ok) return qWarning("%s", qPrintable(r.output)), false;
        if (!writeText(toolkit + QStringLiteral("/empty.cpp"), "")) return false;
        for (const char* lib : {"register", "exe_graph"}) {
            r = compile({QStringLiteral("-shared"), QStringLiteral("-fPIC"),
                         toolkit + QStringLiteral("/empty.cpp"), QStringLiteral("-o"),
                         toolkit + QStringLiteral("/lib64/lib") + QString::fromLatin1(lib) +
                             QStringLiteral(".so")});
            if (!r.ok) return qWarning("%s", qPrintable(r.output)), false;
        }
        return true;
    }

    int m_compiled = 0;
    int m_compiledReal = 0;
};

QTEST_GUILESS_MAIN(TestCannCompile)
#include "tst_cann_compile.moc"
