#include "pipeline/deploy_target.h"

#include "io/remove_tree.h"
#include "io/temporary_folder.h"
#include "package/package_check.h"
#include "run/config_files.h"
#include "run/placeholders.h"
#include "run/process_runner.h"
#include "spec/spec_reader.h"

#include <QLockFile>
#include <charconv>
#include <filesystem>
#include <fnmatch.h>

namespace ptowb {

namespace fs = std::filesystem;

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

bool copyTree(const std::string& from, const std::string& to)
{
    std::error_code ec;
    const fs::path root = fs::absolute(from, ec);
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code e;
        if (!it->is_regular_file(e)) continue;
        const fs::path target = fs::path(to) / it->path().lexically_relative(root);
        fs::create_directories(target.parent_path(), e);
        if (e || !fs::copy_file(it->path(), target, e)) return false;
    }
    return !ec;
}

// As deploy.json may write it: 120, 0.5.
std::string shortestNumber(double value)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

bool renamed(const std::string& from, const std::string& to)
{
    std::error_code ec;
    fs::rename(from, to, ec);
    return !ec;
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

std::string deployPackage(const DeployTarget& target, const std::string& packageFolder,
                          const std::string& archivePath, const std::string& op,
                          const std::string& version, const std::atomic<bool>* cancel)
{
    std::error_code ec;
    // What is deployed is what was checked, whoever touched the package since its export.
    const std::string archive =
        !archivePath.empty() && fs::exists(archivePath, ec) ? archivePath : std::string();
    if (std::string problem = checkDeployable(packageFolder, archive); !problem.empty())
        return "not deployed: " + problem;
    if (!target.folder.empty()) {
        const std::string& folder = target.folder;
        fs::create_directories(folder, ec);
        if (!fs::is_directory(folder, ec)) return "cannot create the deploy folder " + folder;
        const std::string name = fs::path(packageFolder).filename().string();
        const std::string destination = (fs::path(folder) / name).string();
        // One deploy of a package into a folder at a time; then leftovers of a killed one can go.
        QLockFile lock(QString::fromStdString(destination + ".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0)) return "another deploy to " + destination + " is running";
        const std::string leftovers = name + ".deploying-??????";
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (std::error_code e;
                entry.is_directory(e) &&
                ::fnmatch(leftovers.c_str(), entry.path().filename().c_str(), FNM_CASEFOLD) == 0)
                removeTree(entry.path().string());
        const std::string previous = destination + ".previous";
        if (!fs::exists(destination, ec) && fs::is_directory(previous, ec) &&
            !fs::is_symlink(previous, ec))
            renamed(previous, destination);
        TemporaryFolder staging(destination + ".deploying-");
        if (!staging.valid()) return "cannot write in " + folder + ": " + staging.error();
        if (!copyTree(packageFolder, staging.path()))
            return "cannot copy the package into " + folder;
        // A deployed package is read by others: not the 0700 of a temporary folder.
        fs::permissions(staging.path(),
                        fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec,
                        ec);
        if (cancel && cancel->load()) return "cancelled";
        removeTree(previous);
        if (fs::exists(destination, ec) && !renamed(destination, previous))
            return "cannot replace " + destination;
        if (!renamed(staging.path(), destination)) {
            renamed(previous, destination);
            return "cannot move the package to " + destination;
        }
        staging.keep();
        removeTree(previous);
        return {};
    }
    const std::map<std::string, std::string> values{
        {"package", packageFolder}, {"archive", archivePath}, {"op", op}, {"version", version}};
    std::vector<std::string> argv;
    for (const std::string& arg : target.command)
        argv.push_back(expandPlaceholders(arg, values));
    TemporaryFolder logs;
    const ProcessOutcome outcome = runProcess(argv, logs.path(), target.timeoutSeconds, cancel);
    switch (outcome.status) {
    case ProcessOutcome::Status::Finished:
        if (outcome.exitCode == 0) return {};
        return "the deploy command exited with " + std::to_string(outcome.exitCode) + ": " +
               outcome.stderrTail;
    case ProcessOutcome::Status::TimedOut:
        return "the deploy command timed out after " + shortestNumber(target.timeoutSeconds) + " s";
    case ProcessOutcome::Status::Cancelled:
        return "cancelled";
    case ProcessOutcome::Status::Crashed:
        return "the deploy command crashed: " + outcome.stderrTail;
    case ProcessOutcome::Status::FailedToStart:
        return "the deploy command cannot start: " + outcome.error;
    }
    return {};
}

} // namespace ptowb
