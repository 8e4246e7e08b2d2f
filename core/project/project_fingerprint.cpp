#include "project/project_fingerprint.h"

#include "diag/suggest.h"
#include "digest/sha256.h"
#include "project/project.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <vector>

namespace ptowb {

namespace {

// A project holds a handful of Python files; a folder with more is fingerprinted by its first
// ones in path order and a marker, so a huge tree cannot make opening it slow.
constexpr int kMaxFiles = 2000;
constexpr qint64 kMaxFileBytes = 64 << 20;

std::string fileDigest(const QString& path)
{
    const QFileInfo info(path);
    if (info.isSymLink()) // a link is trusted as where it points, not as what is there now
        return "link:" + info.symLinkTarget().toStdString();
    QFile file(path);
    if (info.size() > kMaxFileBytes || !file.open(QIODevice::ReadOnly))
        return "unreadable:" + std::to_string(info.size());
    const QByteArray data = file.readAll();
    return sha256Hex(std::string_view(data.constData(), std::size_t(data.size())));
}

// Not part of it: the workbench's own output (packages, .ptowb), hidden folders, caches.
bool outsideFingerprint(const QString& relative)
{
    const QStringList parts = relative.split(QLatin1Char('/'));
    if (parts.first() == QLatin1String("packages")) return true;
    return std::any_of(parts.cbegin(), parts.cend() - 1, [](const QString& part) {
        return part.startsWith(QLatin1Char('.')) || part == QLatin1String("__pycache__");
    });
}

} // namespace

ProjectFingerprint projectFingerprint(const Project& project)
{
    const QDir root(project.folder());
    ProjectFingerprint out;
    for (const QString& path :
         {project.descriptionPath(), project.kernelPath(), project.referencePath(),
          root.filePath(QStringLiteral("runners.json")),
          root.filePath(QStringLiteral("deploy.json"))})
        if (QFileInfo(path).exists() || QFileInfo(path).isSymLink())
            out[root.relativeFilePath(path).toStdString()] = fileDigest(path);
    QStringList python;
    QDirIterator it(root.path(), {QStringLiteral("*.py")},
                    QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString relative = root.relativeFilePath(it.next());
        if (!outsideFingerprint(relative)) python << relative;
    }
    python.sort();
    for (int k = 0; k < python.size(); ++k) {
        if (k == kMaxFiles) {
            out["(" + std::to_string(python.size() - k) + " more Python files)"] = "";
            break;
        }
        out[python[k].toStdString()] = fileDigest(root.filePath(python[k]));
    }
    return out;
}

std::string fingerprintChanges(const ProjectFingerprint& trusted, const ProjectFingerprint& now)
{
    std::vector<std::string> changed, added, removed;
    for (const auto& [path, digest] : now) {
        const auto it = trusted.find(path);
        if (it == trusted.end())
            added.push_back(path);
        else if (it->second != digest)
            changed.push_back(path);
    }
    for (const auto& [path, digest] : trusted)
        if (!now.count(path)) removed.push_back(path);
    std::vector<std::string> parts;
    const auto say = [&](const std::vector<std::string>& files, const char* one, const char* many) {
        if (!files.empty())
            parts.push_back(joinQuoted(files, "") + (files.size() == 1 ? one : many));
    };
    say(changed, " changed", " changed");
    say(added, " is new", " are new");
    say(removed, " is gone", " are gone");
    std::string sentence;
    for (const std::string& part : parts)
        sentence += (sentence.empty() ? "" : "; ") + part;
    return sentence;
}

} // namespace ptowb
