#pragma once

#include "diag/diagnostic.h"
#include "run/config_files.h"

#include <atomic>
#include <string>
#include <vector>

namespace ptowb {

// Where a package goes after export, from deploy.json (the user's ~/.config/ptowb/deploy.json,
// then the project's, whose target of a name the user's file defines is ignored with a warning;
// a file holds one target, an array, or {"targets": [...]}):
//   { "name": "ops-dir", "folder": "/opt/ops" }                 package copied to
//   /opt/ops/<name>-<version> { "name": "phone", "command": ["hdc", "file", "send", "{archive}",
//   "/data/local/ops/"], "timeout_s": 120 }
// Command placeholders: {package} (folder), {archive} (.tar.gz), {op}, {version}. No shell.
struct DeployTarget
{
    std::string name;
    std::string folder;               // folder targets
    std::vector<std::string> command; // command targets
    double timeoutSeconds = 120;
    std::string sourceFile;
};

struct DeployTargets
{
    std::vector<DeployTarget> targets;
    Diagnostics diagnostics;
    const DeployTarget* find(const std::string& name) const;
};

DeployTargets loadDeployTargets(const std::vector<std::string>& files);
// The same from texts (e.g. the settings editor's unsaved buffer).
DeployTargets loadDeployTargets(const std::vector<ConfigText>& texts);

// Deploys an exported package: a folder target receives a copy, written beside the target and
// renamed into place (an existing copy is replaced only once the new one is complete); a
// command target runs with its placeholders filled. Returns "" or what went wrong.
std::string deployPackage(const DeployTarget& target, const std::string& packageFolder,
                          const std::string& archivePath, const std::string& op,
                          const std::string& version, const std::atomic<bool>* cancel);

} // namespace ptowb
