#include "project/project.h"

#include "io/remove_tree.h"
#include "kernel/kernel_check.h"
#include "project/atomic_file.h"
#include "reference/reference_checker.h"
#include "spec/source_check.h"

#include "json/json_document.h"
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace ptowb {

std::optional<Project> Project::open(const QString& folderOrFile, QString& error)
{
    QFileInfo info(folderOrFile);
    if (info.isFile()) info = QFileInfo(info.absolutePath());
    if (!info.isDir()) {
        error = QStringLiteral("%1 is not a folder").arg(folderOrFile);
        return std::nullopt;
    }
    Project project;
    project.m_folder = QDir::cleanPath(info.absoluteFilePath());
    if (!QFileInfo(project.descriptionPath()).isFile()) {
        error = QStringLiteral("%1 has no %2: it is not an op project")
                    .arg(project.m_folder, QString::fromLatin1(kDescriptionFile));
        return std::nullopt;
    }
    project.readSourceNames();
    return project;
}

QString Project::name() const
{
    return QFileInfo(m_folder).fileName();
}

QString Project::descriptionPath() const
{
    return QDir(m_folder).filePath(QString::fromLatin1(kDescriptionFile));
}
QString Project::kernelPath() const
{
    return QDir(m_folder).filePath(m_kernelFile);
}
QString Project::referencePath() const
{
    return QDir(m_folder).filePath(m_referenceFile);
}

void Project::readSourceNames()
{
    QByteArray text;
    QString error;
    if (!readTextFile(descriptionPath(), text, error)) return;
    const JsonDocument doc = JsonDocument::parse(text.toStdString(), "");
    if (!doc.ok() || !doc.root().is_object()) return;
    auto fileOf = [&](const char* key, QString& into) {
        const auto& root = doc.root();
        if (!root.contains(key) || !root[key].is_object() || !root[key].contains("file") ||
            !root[key]["file"].is_string())
            return;
        const std::string file = root[key]["file"].get<std::string>();
        if (checkRelativePath(file).empty()) into = QString::fromStdString(file);
    };
    fileOf("kernel", m_kernelFile);
    fileOf("reference", m_referenceFile);
}

SpecLoadResult Project::validate(const QByteArray& descriptionText) const
{
    return loadOpSpecText(descriptionText.toStdString(), descriptionPath().toStdString(),
                          m_folder.toStdString());
}

QString userConfigFile(const QString& name)
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/ptowb/") + name;
}

std::vector<std::string> Project::configFiles(const QString& name) const
{
    return {userConfigFile(name).toStdString(), QDir(m_folder).filePath(name).toStdString()};
}

QString Project::linkedFolderError(const QString& path) const
{
    const std::string link = firstLinkBelow(QDir(m_folder).absolutePath().toStdString(),
                                            QDir(path).absolutePath().toStdString());
    if (link.empty()) return {};
    return QStringLiteral("%1 is a symbolic link: the workbench writes its own folders of a "
                          "project (.ptowb, packages) only inside it; remove the link")
        .arg(QString::fromStdString(link));
}

QString Project::runsFolder() const
{
    return QDir(m_folder).filePath(QStringLiteral(".ptowb/runs"));
}

QString Project::glueFolder() const
{
    return QDir(m_folder).filePath(QStringLiteral(".ptowb/glue"));
}

SpecLoadResult Project::validateSaved() const
{
    return loadOpSpecFile(descriptionPath().toStdString());
}

Diagnostics Project::checkReference(const OpSpec& spec, const QByteArray& referenceText,
                                    const std::atomic<bool>* cancel) const
{
    return checkReferenceBounded(spec, referenceText.toStdString(), referencePath().toStdString(),
                                 cancel);
}

Diagnostics Project::checkKernel(const OpSpec& spec, const QByteArray& kernelText) const
{
    return kernel::checkKernelSource(kernelText.toStdString(), spec, kernelPath().toStdString());
}

Diagnostics Project::check(const QByteArray& descriptionText, const QByteArray& referenceText,
                           const QByteArray& kernelText, const std::atomic<bool>* cancel) const
{
    SpecLoadResult result = validate(descriptionText);
    if (result.usable() && QFileInfo::exists(kernelPath())) {
        const Diagnostics kernel = checkKernel(result.spec, kernelText);
        result.diagnostics.insert(result.diagnostics.end(), kernel.begin(), kernel.end());
    }
    // A reference can only be checked against a sound description (its names and outputs).
    if (result.usable() && QFileInfo::exists(referencePath())) {
        const Diagnostics reference = checkReference(result.spec, referenceText, cancel);
        result.diagnostics.insert(result.diagnostics.end(), reference.begin(), reference.end());
    }
    return result.diagnostics;
}

} // namespace ptowb
