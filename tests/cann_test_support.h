#pragma once
// What the CANN tests share: the ops they generate for (every sample project and the hostile
// op), writing the generated files, and compiling C++ the way CANN's custom-op build does
// (C++11 or C++17, -D_GLIBCXX_USE_CXX11_ABI=0) against tests/cann_api — or against real CANN
// headers when CANN_INCLUDE_DIRS (a CMake cache variable or the environment; ';'- or
// ':'-separated) names them.
#include "codegen/glue.h"
#include "project/project_sources.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

namespace cann_test {

using ptowb::codegen::GeneratedFile;

inline QStringList opFolders()
{
    QStringList out;
    const QDir projects(QStringLiteral(PTOWB_SOURCE_DIR "/projects"));
    for (const QString& name : projects.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFileInfo::exists(projects.filePath(name + QStringLiteral("/op.json"))))
            out << projects.filePath(name);
    out << QStringLiteral(PTOWB_TEST_DATA "/glue_hostile");
    // A kernel with a dataclass config, one that writes an input in place (a ref tensor), one
    // whose only result is that input (no output of its own), and one that reads no tensor.
    out << QStringLiteral(PTOWB_TEST_DATA "/config_kernel")
        << QStringLiteral(PTOWB_TEST_DATA "/mutated_kernel")
        << QStringLiteral(PTOWB_TEST_DATA "/inplace_kernel")
        << QStringLiteral(PTOWB_TEST_DATA "/no_input_kernel");
    return out;
}

inline ptowb::ProjectSources sourcesOf(const QString& folder)
{
    std::string error;
    auto project = ptowb::Project::open(folder.toStdString(), error);
    if (!project) qFatal("%s", error.c_str());
    return ptowb::readProjectSources(*project);
}

inline std::vector<GeneratedFile> cannFiles(const ptowb::ProjectSources& sources)
{
    std::vector<GeneratedFile> out;
    for (auto& f : ptowb::codegen::generateGlue(sources.glueSource()))
        if (f.path.rfind("cann/", 0) == 0) out.push_back(f);
    return out;
}

inline const GeneratedFile* findFile(const std::vector<GeneratedFile>& files,
                                     const std::string& suffix)
{
    for (const auto& f : files)
        if (f.path.size() >= suffix.size() &&
            f.path.compare(f.path.size() - suffix.size(), suffix.size(), suffix) == 0)
            return &f;
    return nullptr;
}

inline bool writeText(const QString& path, const std::string& text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return out.write(text.data(), qint64(text.size())) == qint64(text.size());
}

// The real CANN include folders, when the build names them.
inline QStringList realCannIncludeDirs()
{
    // As configured (tests/CMakeLists.txt reads CANN_INCLUDE_DIRS), never from the test's shell.
    const QString dirs = QStringLiteral(PTOWB_CANN_INCLUDE_DIRS);
    return dirs.split(QRegularExpression(QStringLiteral("[;:]")), Qt::SkipEmptyParts);
}

inline QString declarationsDir()
{
    return QStringLiteral(PTOWB_SOURCE_DIR "/tests/cann_api");
}

// The test doubles behind the declarations, to link generated code into a program.
inline QStringList doubleSources()
{
    const QString dir = declarationsDir() + QStringLiteral("/doubles/");
    return {dir + QStringLiteral("graph_doubles.cpp"), dir + QStringLiteral("runtime_doubles.cpp"),
            dir + QStringLiteral("op_def_doubles.cpp")};
}

// -isystem for the API headers: their own warnings are not the generated code's.
inline QStringList apiFlags(bool real)
{
    QStringList flags;
    for (const QString& dir : real ? realCannIncludeDirs() : QStringList{declarationsDir()})
        flags << QStringLiteral("-isystem") << dir;
    return flags;
}

// CANN's custom-op flags plus warnings as errors, so generated code stays warning-free.
inline QStringList cannFlags(const QString& standard)
{
    return {QStringLiteral("-std=") + standard,
            QStringLiteral("-D_GLIBCXX_USE_CXX11_ABI=0"),
            QStringLiteral("-pedantic-errors"),
            QStringLiteral("-Wall"),
            QStringLiteral("-Wextra"),
            QStringLiteral("-Werror"),
            QStringLiteral("-fPIC")};
}

struct Run
{
    bool ok = false;
    QString output; // stdout and stderr, or stdout alone when they are kept apart
    QString errors; // stderr, when kept apart
};

inline Run run(const QString& program, const QStringList& args, const QString& workDir = {},
               bool separateErrors = false, int timeoutMs = 600000)
{
    QProcess p;
    p.setProcessChannelMode(separateErrors ? QProcess::SeparateChannels : QProcess::MergedChannels);
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000)) {
        r.output = QStringLiteral("cannot start ") + program;
        return r;
    }
    const bool finished = p.waitForFinished(timeoutMs);
    r.output = QString::fromUtf8(p.readAllStandardOutput());
    if (separateErrors) r.errors = QString::fromUtf8(p.readAllStandardError());
    r.ok = finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    return r;
}

// The compiler through ccache when the build found one: the same sources compile once.
inline Run compile(const QStringList& args, const QString& workDir = {})
{
    const QString ccache = QStringLiteral(PTOWB_CCACHE);
    if (ccache.isEmpty()) return run(QStringLiteral(PTOWB_CXX), args, workDir);
    return run(ccache, QStringList{QStringLiteral(PTOWB_CXX)} + args, workDir);
}

} // namespace cann_test
