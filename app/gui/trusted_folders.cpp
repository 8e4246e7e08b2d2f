#include "trusted_folders.h"

#include "digest/sha256.h"
#include "project/new_project.h"
#include "project/project.h"
#include "project/project_fingerprint.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QVariantMap>
#include <optional>

namespace ptowb {

namespace {

// canonical folder -> {relative path -> sha256}. ("trustedFolders", a plain list of paths, is
// what older versions kept: trust in a path alone is not honoured any more.)
constexpr const char* kKey = "trustedProjects";

QString canonical(const QString& folder)
{
    const QString path = QFileInfo(folder).canonicalFilePath();
    return path.isEmpty() ? QDir::cleanPath(QFileInfo(folder).absoluteFilePath()) : path;
}

QVariantMap toVariant(const ProjectFingerprint& fingerprint)
{
    QVariantMap map;
    for (const auto& [path, digest] : fingerprint)
        map.insert(QString::fromStdString(path), QString::fromStdString(digest));
    return map;
}

ProjectFingerprint fromVariant(const QVariantMap& map)
{
    ProjectFingerprint fingerprint;
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        fingerprint[it.key().toStdString()] = it.value().toString().toStdString();
    return fingerprint;
}

std::optional<ProjectFingerprint> current(const QString& folder)
{
    std::string error;
    const auto project = Project::open(folder.toStdString(), error);
    if (!project) return std::nullopt;
    return projectFingerprint(*project);
}

bool askWithDialog(const QString& folder, const QString& changes)
{
    const QString intro =
        changes.isEmpty()
            ? QObject::tr("Verify, Export and Redeploy run the project's kernel.py and "
                          "reference.py as code, with your permissions:")
            : QObject::tr("This project changed outside the workbench since you trusted it "
                          "(%1). Verify, Export and Redeploy run its code with your permissions:")
                  .arg(changes);
    const auto answer = QMessageBox::question(QApplication::activeWindow(),
                                              QObject::tr("Trust this project folder?"),
                                              QStringLiteral("%1\n\n%2\n\n%3")
                                                  .arg(intro, QDir::toNativeSeparators(folder),
                                                       QObject::tr("Run code from this folder?")),
                                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    return answer == QMessageBox::Yes;
}

bool isSample(const QString& path)
{
    for (const std::string& sample : sampleProjects())
        if (canonical(QString::fromStdString(sample)) == path) return true;
    return false;
}

} // namespace

bool TrustedFolders::isTrusted(const QString& folder)
{
    const QString path = canonical(folder);
    if (isSample(path)) return true;
    const QVariantMap all = QSettings().value(QLatin1String(kKey)).toMap();
    const auto now = current(path);
    return all.contains(path) && now && fromVariant(all.value(path).toMap()) == *now;
}

void TrustedFolders::trust(const QString& folder)
{
    const QString path = canonical(folder);
    const auto now = current(path);
    if (!now) return;
    QVariantMap all = QSettings().value(QLatin1String(kKey)).toMap();
    all.insert(path, toVariant(*now));
    QSettings().setValue(QLatin1String(kKey), all);
}

void TrustedFolders::noteOwnSave(const QString& folder, const QString& file,
                                 const std::string& text)
{
    const QString path = canonical(folder);
    QVariantMap all = QSettings().value(QLatin1String(kKey)).toMap();
    if (!all.contains(path)) return;
    QVariantMap fingerprint = all.value(path).toMap();
    fingerprint.insert(QDir(path).relativeFilePath(canonical(file)),
                       QString::fromStdString(sha256Hex(text)));
    all.insert(path, fingerprint);
    QSettings().setValue(QLatin1String(kKey), all);
}

TrustedFolders::Prompt& TrustedFolders::prompt()
{
    static Prompt current = askWithDialog;
    return current;
}

bool TrustedFolders::ensureTrusted(const QString& folder)
{
    if (isTrusted(folder)) return true;
    const QString path = canonical(folder);
    const QVariantMap all = QSettings().value(QLatin1String(kKey)).toMap();
    QString changes;
    if (const auto now = current(path); now && all.contains(path))
        changes =
            QString::fromStdString(fingerprintChanges(fromVariant(all.value(path).toMap()), *now));
    if (!prompt()(folder, changes)) return false;
    trust(folder);
    return true;
}

} // namespace ptowb
