#include "project/project_sources.h"

#include "project/atomic_file.h"

#include <QDir>
#include <QFileInfo>

namespace ptowb {

codegen::GlueSource ProjectSources::glueSource() const
{
    return codegen::GlueSource{loaded.spec, opJson, kernel, reference};
}

ProjectTexts ProjectSources::texts(const Project& project) const
{
    return ProjectTexts{project.folder().toStdString(), opJson, kernel, reference};
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

QString writeGeneratedFiles(const std::vector<codegen::GeneratedFile>& files, const QString& folder)
{
    for (const codegen::GeneratedFile& file : files) {
        const QString path = QDir(folder).filePath(QString::fromStdString(file.path));
        if (!QDir().mkpath(QFileInfo(path).absolutePath()))
            return QStringLiteral("cannot create the folder of %1").arg(path);
        if (QString error = writeFileAtomically(path, QByteArray::fromStdString(file.content));
            !error.isEmpty())
            return error;
    }
    return {};
}

} // namespace ptowb
