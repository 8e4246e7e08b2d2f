// Helpers for the import tests: the data files, the imported project's files, and
// `ptowb-cli verify` of it.
#pragma once

#include "importer/kernel_import.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtTest>
#include <string>
#include <utility>

namespace importtest {

using namespace ptowb;
using namespace ptowb::importer;

inline QString data(const char* file)
{
    return QStringLiteral(PTOWB_TEST_DATA "/import_kernels/") + QLatin1String(file);
}

inline QJsonObject readOp(const QString& project)
{
    QFile f(project + QStringLiteral("/op.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The names of op.json's `list` ("inputs", "outputs"), in order; with `flag`, only the entries
// that set it true ("mutated").
inline QStringList namesIn(const QJsonObject& op, const char* list, const char* flag = nullptr)
{
    QStringList names;
    for (const auto& entry : op[QLatin1String(list)].toArray())
        if (!flag || entry[QLatin1String(flag)].toBool())
            names << entry[QStringLiteral("name")].toString();
    return names;
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Replaces `from` with `to` in a project file, as an author's edit; false when `from` is not there
// or the file cannot be written.
inline bool editFile(const QString& path, const QByteArray& from, const QByteArray& to)
{
    QByteArray text = readAll(path);
    if (!text.contains(from)) return false;
    text.replace(from, to);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(text) == text.size();
}

// `ptowb-cli ARGS`: exit code and output.
inline std::pair<int, QString> cli(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(PTOWB_CLI), args);
    if (!p.waitForFinished(300000)) p.kill();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAll())};
}

// `ptowb-cli verify` of the imported project: exit code and output.
inline std::pair<int, QString> verify(const QString& project)
{
    return cli(
        {QStringLiteral("verify"), project, QStringLiteral("--against"), QStringLiteral("sim")});
}

// verify passes on the imported project, and fails once the author's kernel file computes
// something else (`from` replaced by `to` in it).
inline void verifyPassesThenFailsAfter(const QString& kernelFile, const QByteArray& from,
                                       const QByteArray& to)
{
    const QString project = QFileInfo(kernelFile).absolutePath();
    const auto [code, text] = verify(project);
    QVERIFY2(code == 0, qPrintable(text));
    QVERIFY(editFile(kernelFile, from, to));
    const auto [failed, failure] = verify(project);
    QVERIFY2(failed != 0 && failure.contains(QStringLiteral("FAIL")), qPrintable(failure));
}

inline const Diagnostic* find(const ImportResult& r, const std::string& code)
{
    for (const auto& d : r.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

inline QString describe(const ImportResult& r)
{
    QString s;
    for (const auto& d : r.diagnostics)
        s += QString::fromStdString(formatDiagnostic(d)) + QLatin1Char('\n');
    return s;
}

inline ImportResult import(const QString& file, const QString& out,
                           const std::string& function = {}, double seconds = 240)
{
    ImportOptions options;
    options.file = file.toStdString();
    options.outDir = out.toStdString();
    options.function = function;
    options.seconds = seconds;
    return importKernel(options);
}

} // namespace importtest
