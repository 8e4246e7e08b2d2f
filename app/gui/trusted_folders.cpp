#include "trusted_folders.h"

#include "project/new_project.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace ptowb {

namespace {

constexpr const char* kKey = "trustedFolders";

QString canonical(const QString& folder)
{
    const QString path = QFileInfo(folder).canonicalFilePath();
    return path.isEmpty() ? QDir::cleanPath(QFileInfo(folder).absoluteFilePath()) : path;
}

bool askWithDialog(const QString& folder)
{
    const auto answer = QMessageBox::question(
        QApplication::activeWindow(), QObject::tr("Trust this project folder?"),
        QObject::tr(
            "Verify, Export and Redeploy run the project's kernel.py and reference.py as code, "
            "with your permissions:\n\n%1\n\nRun code from this folder?")
            .arg(QDir::toNativeSeparators(folder)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    return answer == QMessageBox::Yes;
}

} // namespace

bool TrustedFolders::isTrusted(const QString& folder)
{
    const QString path = canonical(folder);
    for (const QString& sample : sampleProjects())
        if (canonical(sample) == path) return true;
    return QSettings().value(QLatin1String(kKey)).toStringList().contains(path);
}

void TrustedFolders::trust(const QString& folder)
{
    QStringList entries = QSettings().value(QLatin1String(kKey)).toStringList();
    const QString path = canonical(folder);
    if (!entries.contains(path)) entries << path;
    QSettings().setValue(QLatin1String(kKey), entries);
}

TrustedFolders::Prompt& TrustedFolders::prompt()
{
    static Prompt current = askWithDialog;
    return current;
}

bool TrustedFolders::ensureTrusted(const QString& folder)
{
    if (isTrusted(folder)) return true;
    if (!prompt()(folder)) return false;
    trust(folder);
    return true;
}

} // namespace ptowb
