#include "project/new_project.h"

#include "diag/suggest.h"
#include "io/remove_tree.h"
#include "project/atomic_file.h"
#include "run/platforms.h"
#include "spec/identifiers.h"
#include "text/template_text.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <algorithm>
#include <cctype>
#include <filesystem>

namespace ptowb {

namespace {

QString templateFolder(const std::string& name)
{
    for (const auto& folder : resourceFolders("templates")) {
        const auto path = std::filesystem::path(folder) / name;
        if (std::filesystem::exists(path / "op.json")) return QString::fromStdString(path.string());
    }
    return {};
}

} // namespace

std::vector<QString> sampleProjects()
{
    std::vector<std::string> folders = resourceFolders("projects");
    folders.push_back(
        (std::filesystem::path(PTOWB_SOURCE_RESOURCES_DIR).parent_path() / "projects").string());
    std::vector<QString> samples;
    std::vector<std::string> names;
    for (const auto& folder : folders) {
        std::error_code ec;
        std::vector<std::filesystem::path> found;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
            if (std::filesystem::exists(entry.path() / "op.json", ec))
                found.push_back(entry.path());
        std::sort(found.begin(), found.end());
        for (const auto& path : found)
            if (std::find(names.begin(), names.end(), path.filename().string()) == names.end()) {
                names.push_back(path.filename().string());
                samples.push_back(QString::fromStdString(path.string()));
            }
    }
    return samples;
}

std::vector<std::string> templateNames()
{
    std::vector<std::string> names;
    for (const auto& folder : resourceFolders("templates")) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
            if (std::filesystem::exists(entry.path() / "op.json") &&
                std::find(names.begin(), names.end(), entry.path().filename().string()) ==
                    names.end())
                names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string opTypeFor(const std::string& name)
{
    std::string out;
    bool upper = true;
    for (char c : name) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    if (out.empty() || !std::isupper(static_cast<unsigned char>(out[0]))) out = "Op" + out;
    return out;
}

QString createProjectFromTemplate(const NewProjectOptions& options)
{
    if (const std::string why = checkIdentifier(options.name); !why.empty())
        return QStringLiteral("op name: %1").arg(QString::fromStdString(why));
    if (const std::string why = checkIdentifier(options.ns); !why.empty())
        return QStringLiteral("namespace: %1").arg(QString::fromStdString(why));
    const QString source = templateFolder(options.templateName);
    if (source.isEmpty()) {
        const auto names = templateNames();
        return QStringLiteral("no template '%1'%2 (templates: %3)")
            .arg(QString::fromStdString(options.templateName),
                 QString::fromStdString(didYouMean(options.templateName, names)),
                 QString::fromStdString(joinQuoted(names)));
    }
    const QDir target(options.folder);
    if (target.exists() && !target.isEmpty())
        return QStringLiteral("%1 exists and is not empty").arg(options.folder);
    if (!QDir().mkpath(options.folder))
        return QStringLiteral("cannot create %1").arg(options.folder);
    const std::vector<std::pair<std::string, std::string>> values{
        {"NAME", options.name}, {"NAMESPACE", options.ns}, {"OP_TYPE", opTypeFor(options.name)}};
    for (const char* file : {"op.json", "kernel.py", "reference.py"}) {
        QByteArray text;
        QString error;
        if (!readTextFile(QDir(source).filePath(QString::fromLatin1(file)), text, error))
            return error;
        const std::string filled = fillTemplate(text.toStdString(), values);
        if (QString e = writeFileAtomically(target.filePath(QString::fromLatin1(file)),
                                            QByteArray::fromStdString(filled));
            !e.isEmpty())
            return e;
    }
    return {};
}

QString copySampleProject(const QString& sample, const QString& folder)
{
    if (!QFileInfo::exists(QDir(sample).filePath(QStringLiteral("op.json"))))
        return QStringLiteral("%1 is not an op project (no op.json)").arg(sample);
    if (const QDir target(folder); target.exists() && !target.isEmpty())
        return QStringLiteral("%1 exists and is not empty").arg(folder);
    // Staged beside the target and renamed into place: a copy is whole or absent.
    const QString staging = folder + QStringLiteral(".copying");
    removeTree(staging.toStdString());
    QDirIterator it(sample, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    QString error;
    while (error.isEmpty() && it.hasNext()) {
        const QString from = it.next();
        const QString relative = QDir(sample).relativeFilePath(from);
        const QString top = relative.section(QLatin1Char('/'), 0, 0);
        if (top.startsWith(QLatin1Char('.')) || top == QLatin1String("packages")) continue;
        const QString to = QDir(staging).filePath(relative);
        if (it.fileInfo().isDir())
            QDir().mkpath(to);
        else if (!QDir().mkpath(QFileInfo(to).absolutePath()) || !QFile::copy(from, to))
            error = QStringLiteral("cannot copy %1 to %2").arg(from, to);
    }
    QDir().rmdir(folder); // an empty target gives way to the staged copy
    if (error.isEmpty() && !QDir().rename(staging, folder))
        error = QStringLiteral("cannot create %1").arg(folder);
    if (!error.isEmpty()) removeTree(staging.toStdString());
    return error;
}

} // namespace ptowb
