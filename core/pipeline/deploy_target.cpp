#include "pipeline/deploy_target.h"

#include "io/remove_tree.h"
#include "package/package_check.h"
#include "run/config_files.h"
#include "run/placeholders.h"
#include "run/process_runner.h"
#include "spec/spec_reader.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QTemporaryDir>

namespace ptowb {

namespace {

const std::vector<std::string> kDeployPlaceholders{"package", "archive", "op", "version"};

void readTarget(SpecReader& r, const nlohmann::json& item, const std::string& ptr,
                const std::string& file, DeployTargets& out)
{
    if (!r.isType(item, ptr, nlohmann::json::value_t::object, "a deploy target object")) return;
    r.checkKeys(item, ptr, {"name", "folder", "command", "timeout_s"});
    DeployTarget t;
    t.sourceFile = file;
    const auto name = r.string(item, ptr, "name", true);
    if (!name) return;
    if (!isConfigItemName(*name)) {
        r.error(ptr + "/name", "deploy.bad-name",
                "deploy target name \"" + *name + "\" must be letters, digits, '_', '.', '-'");
        return;
    }
    t.name = *name;
    if (auto timeout = r.number(item, ptr, "timeout_s", false, 0.1, 86400))
        t.timeoutSeconds = *timeout;
    const bool hasFolder = item.contains("folder"), hasCommand = item.contains("command");
    if (hasFolder == hasCommand) {
        r.error(ptr, "deploy.kind", "a deploy target needs either \"folder\" or \"command\"");
        return;
    }
    if (hasFolder) {
        const auto folder = r.string(item, ptr, "folder", true);
        if (!folder || folder->empty()) return;
        t.folder = *folder;
    } else {
        const auto* command = r.array(item, ptr, "command", true);
        if (!command) return;
        if (command->empty()) {
            r.error(ptr + "/command", "deploy.empty-command",
                    "the command needs at least the program to run");
            return;
        }
        for (std::size_t k = 0; k < command->size(); ++k) {
            const std::string aptr = SpecReader::child(ptr + "/command", k);
            if (!r.isType((*command)[k], aptr, nlohmann::json::value_t::string, "a string")) return;
            const std::string arg = (*command)[k].get<std::string>();
            for (const std::string& key : placeholderNames(arg))
                if (std::find(kDeployPlaceholders.begin(), kDeployPlaceholders.end(), key) ==
                    kDeployPlaceholders.end()) {
                    r.error(aptr, "deploy.unknown-placeholder",
                            "unknown placeholder {" + key + "}; use " +
                                placeholderList(kDeployPlaceholders));
                    return;
                }
            t.command.push_back(arg);
        }
    }
    // The user's own target of a name wins: a project folder cannot redirect a deploy.
    for (const auto& existing : out.targets)
        if (existing.name == t.name) {
            r.warning(ptr + "/name", "deploy.shadowed",
                      "the deploy target \"" + t.name + "\" is also defined in " +
                          existing.sourceFile + ", which wins: this one is ignored");
            return;
        }
    out.targets.push_back(std::move(t));
}

bool copyTree(const QString& from, const QString& to)
{
    const QDir root(QFileInfo(from).absoluteFilePath()); // relativeFilePath needs an absolute base
    QDirIterator it(root.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = QDir(to).filePath(root.relativeFilePath(source));
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

} // namespace

const DeployTarget* DeployTargets::find(const std::string& name) const
{
    for (const auto& t : targets)
        if (t.name == name) return &t;
    return nullptr;
}

DeployTargets loadDeployTargets(const std::vector<std::string>& files)
{
    return loadConfigFiles<DeployTargets>(files, &loadDeployTargets);
}

DeployTargets loadDeployTargets(const std::vector<ConfigText>& texts)
{
    DeployTargets out;
    readJsonConfigItems(texts, out.diagnostics, "targets",
                        [&](SpecReader& r, const nlohmann::json& item, const std::string& ptr,
                            const std::string& file) { readTarget(r, item, ptr, file, out); });
    return out;
}

QString deployPackage(const DeployTarget& target, const QString& packageFolder,
                      const QString& archivePath, const std::string& op, const std::string& version,
                      const std::atomic<bool>* cancel)
{
    // What is deployed is what was checked, whoever touched the package since its export.
    const QString archive =
        !archivePath.isEmpty() && QFileInfo::exists(archivePath) ? archivePath : QString();
    if (QString problem = checkDeployable(packageFolder, archive); !problem.isEmpty())
        return QStringLiteral("not deployed: %1").arg(problem);
    if (!target.folder.empty()) {
        const QString folder = QString::fromStdString(target.folder);
        if (!QDir().mkpath(folder))
            return QStringLiteral("cannot create the deploy folder %1").arg(folder);
        const QString destination = QDir(folder).filePath(QFileInfo(packageFolder).fileName());
        // One deploy of a package into a folder at a time; then leftovers of a killed one can go.
        QLockFile lock(destination + QStringLiteral(".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            return QStringLiteral("another deploy to %1 is running").arg(destination);
        const QString name = QFileInfo(destination).fileName();
        for (const QFileInfo& leftover :
             QDir(folder).entryInfoList({name + QStringLiteral(".deploying-??????")},
                                        QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot))
            removeTree(leftover.filePath().toStdString());
        if (!QFileInfo::exists(destination) &&
            QFileInfo(destination + QStringLiteral(".previous")).isDir() &&
            !QFileInfo(destination + QStringLiteral(".previous")).isSymLink())
            QDir().rename(destination + QStringLiteral(".previous"), destination);
        QTemporaryDir staging(destination + QStringLiteral(".deploying-XXXXXX"));
        if (!staging.isValid())
            return QStringLiteral("cannot write in %1: %2").arg(folder, staging.errorString());
        if (!copyTree(packageFolder, staging.path()))
            return QStringLiteral("cannot copy the package into %1").arg(folder);
        // A deployed package is read by others: not the 0700 of a temporary folder.
        QFile::setPermissions(staging.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                  QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                                  QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                  QFileDevice::ExeOther);
        if (cancel && cancel->load()) return QStringLiteral("cancelled");
        const QString previous = destination + QStringLiteral(".previous");
        removeTree(previous.toStdString());
        if (QFileInfo::exists(destination) && !QDir().rename(destination, previous))
            return QStringLiteral("cannot replace %1").arg(destination);
        if (!QDir().rename(staging.path(), destination)) {
            QDir().rename(previous, destination);
            return QStringLiteral("cannot move the package to %1").arg(destination);
        }
        staging.setAutoRemove(false);
        removeTree(previous.toStdString());
        return {};
    }
    const std::map<std::string, std::string> values{{"package", packageFolder.toStdString()},
                                                    {"archive", archivePath.toStdString()},
                                                    {"op", op},
                                                    {"version", version}};
    QStringList argv;
    for (const std::string& arg : target.command)
        argv << QString::fromStdString(expandPlaceholders(arg, values));
    QTemporaryDir logs;
    const ProcessOutcome outcome = runProcess(argv, logs.path(), target.timeoutSeconds, cancel);
    switch (outcome.status) {
    case ProcessOutcome::Status::Finished:
        if (outcome.exitCode == 0) return {};
        return QStringLiteral("the deploy command exited with %1: %2")
            .arg(outcome.exitCode)
            .arg(outcome.stderrTail.trimmed());
    case ProcessOutcome::Status::TimedOut:
        return QStringLiteral("the deploy command timed out after %1 s").arg(target.timeoutSeconds);
    case ProcessOutcome::Status::Cancelled:
        return QStringLiteral("cancelled");
    case ProcessOutcome::Status::Crashed:
        return QStringLiteral("the deploy command crashed: %1").arg(outcome.stderrTail.trimmed());
    case ProcessOutcome::Status::FailedToStart:
        return QStringLiteral("the deploy command cannot start: %1").arg(outcome.error);
    }
    return {};
}

} // namespace ptowb
