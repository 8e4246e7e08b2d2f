#include "codegen/project_glue.h"

#include "project/atomic_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ptowb::codegen {

GlueSource ProjectSources::glueSource() const
{
    return GlueSource{loaded.spec, opJson, kernel, reference, defaultPtowbCMakeDir()};
}

ProjectSources readProjectSources(const Project& project)
{
    ProjectSources sources;
    QByteArray description, kernel, reference;
    if (!readTextFile(project.descriptionPath(), description, sources.error)) return sources;
    sources.loaded = project.validate(description);
    if (!sources.loaded.usable()) return sources;
    if (!readTextFile(project.kernelPath(), kernel, sources.error) ||
        !readTextFile(project.referencePath(), reference, sources.error))
        return sources;
    sources.opJson = description.toStdString();
    sources.kernel = kernel.toStdString();
    sources.reference = reference.toStdString();
    return sources;
}

std::string defaultPtowbCMakeDir()
{
    if (const QByteArray env = qgetenv("PTOWB_CMAKE_DIR"); !env.isEmpty()) return env.toStdString();
    // The running executable's folder, with or without a QCoreApplication.
    const QString exeDir =
        QCoreApplication::instance()
            ? QCoreApplication::applicationDirPath()
            : QFileInfo(QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath())
                  .absolutePath();
    const QString installed = QDir(exeDir).filePath(QStringLiteral("../lib/cmake/ptowb"));
    if (QFileInfo::exists(installed + QStringLiteral("/ptowbConfig.cmake")))
        return QDir::cleanPath(installed).toStdString();
    return PTOWB_CMAKE_BUILD_DIR;
}

QString writeGeneratedFiles(const std::vector<GeneratedFile>& files, const QString& folder)
{
    for (const GeneratedFile& file : files) {
        const QString path = QDir(folder).filePath(QString::fromStdString(file.path));
        if (!QDir().mkpath(QFileInfo(path).absolutePath()))
            return QStringLiteral("cannot create the folder of %1").arg(path);
        if (QString error = writeFileAtomically(path, QByteArray::fromStdString(file.content));
            !error.isEmpty())
            return error;
    }
    return {};
}

} // namespace ptowb::codegen
