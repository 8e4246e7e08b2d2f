#include "project/glue_generation.h"

#include "io/remove_tree.h"
#include "project/project_sources.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <map>

namespace ptowb {

namespace {
// Generated files are source text; anything larger is not ours and is not shown.
constexpr qint64 kMaxGeneratedFileBytes = 8 << 20;
} // namespace

std::vector<codegen::GeneratedFile> readGeneratedFolder(const QString& folder)
{
    std::vector<codegen::GeneratedFile> files;
    const QDir root(folder);
    QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (file.size() > kMaxGeneratedFileBytes || !file.open(QIODevice::ReadOnly)) continue;
        files.push_back({root.relativeFilePath(path).toStdString(), file.readAll().toStdString()});
    }
    std::sort(files.begin(), files.end(),
              [](const codegen::GeneratedFile& a, const codegen::GeneratedFile& b) {
                  return a.path < b.path;
              });
    return files;
}

std::vector<GlueFileChange> compareGenerations(const std::vector<codegen::GeneratedFile>& previous,
                                               const std::vector<codegen::GeneratedFile>& current)
{
    std::map<std::string, std::pair<const std::string*, const std::string*>> byPath;
    for (const codegen::GeneratedFile& f : previous)
        byPath[f.path].first = &f.content;
    for (const codegen::GeneratedFile& f : current)
        byPath[f.path].second = &f.content;
    std::vector<GlueFileChange> changes;
    for (const auto& [path, texts] : byPath) {
        GlueFileChange change;
        change.path = path;
        const auto [before, after] = texts;
        change.diff = diffLines(before ? *before : std::string(), after ? *after : std::string());
        if (!before)
            change.status = GlueFileChange::Status::Added;
        else if (!after)
            change.status = GlueFileChange::Status::Removed;
        else if (*before != *after)
            change.status = GlueFileChange::Status::Changed;
        changes.push_back(std::move(change));
    }
    return changes;
}

QString previousGenerationFolder(const QString& folder)
{
    return folder + QStringLiteral(".previous");
}

QString replaceGeneratedFolder(const std::vector<codegen::GeneratedFile>& files,
                               const QString& folder)
{
    // The folders beside the glue are removed as they are: a link planted there loses only
    // itself, never what it points at.
    const auto remove = [](const QString& path) { removeTree(path.toStdString()); };
    if (QFileInfo(folder).isSymLink())
        return QStringLiteral("%1 is a symbolic link: remove it, the glue is written only into a "
                              "real folder")
            .arg(folder);
    const QString staging = folder + QStringLiteral(".new");
    const QString retired = folder + QStringLiteral(".old");
    remove(staging);
    remove(retired);
    if (QString error = writeGeneratedFiles(files, staging); !error.isEmpty()) {
        remove(staging);
        return error;
    }
    if (QFileInfo::exists(folder) && !QDir().rename(folder, retired)) {
        remove(staging);
        return QStringLiteral("cannot replace %1").arg(folder);
    }
    if (!QDir().rename(staging, folder)) {
        QDir().rename(retired, folder);
        return QStringLiteral("cannot move the new glue into %1").arg(folder);
    }
    // The replaced generation becomes the previous one, for the diff against it.
    const QString previous = previousGenerationFolder(folder);
    remove(previous);
    if (QFileInfo::exists(retired) && !QDir().rename(retired, previous)) remove(retired);
    return {};
}

} // namespace ptowb
