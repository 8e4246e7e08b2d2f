#pragma once

#include "spec/op_spec_loader.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace ptowb {

// An op project folder: op.json plus the kernel and reference files it names.
// The user's copy of a configuration file: ~/.config/ptowb/<name> (XDG_CONFIG_HOME respected).
std::string userConfigFile(const std::string& name);

class Project
{
public:
    static constexpr const char* kDescriptionFile = "op.json";

    // Accepts the folder or the path of its op.json. Fails when there is no op.json.
    static std::optional<Project> open(const std::string& folderOrFile, std::string& error);

    // UTF-8 paths, absolute and clean (no "." or ".." and no trailing separator).
    const std::string& folder() const { return m_folder; }
    std::string name() const;
    std::string descriptionPath() const;
    // From op.json when it names them; kernel.py / reference.py otherwise.
    std::string kernelPath() const;
    std::string referencePath() const;

    // A configuration file's two places: the user's (~/.config/ptowb/<name>), then the
    // project's (<project>/<name>). A project's tolerances refine the user's; a runner or deploy
    // target the user named keeps the user's command (the project's is a warning).
    std::vector<std::string> configFiles(const std::string& name) const;
    std::vector<std::string> runnerConfigFiles() const { return configFiles("runners.json"); }
    std::vector<std::string> deployConfigFiles() const { return configFiles("deploy.json"); }
    std::vector<std::string> toleranceConfigFiles() const { return configFiles("tolerances.json"); }
    // Where run folders go: <project>/.ptowb/runs.
    std::string runsFolder() const;
    // Where Generate writes the glue (the last generation; the app diffs against it).
    std::string glueFolder() const;
    // "" when `path` (a folder the workbench writes: .ptowb/..., packages/...) is reached without a
    // symbolic link below the project folder; otherwise the error naming the link.
    std::string linkedFolderError(const std::string& path) const;

    // Validates op.json text (saved or not) against the files in the folder.
    SpecLoadResult validate(const std::string& descriptionText) const;
    SpecLoadResult validateSaved() const;
    // Compiles reference.py text (saved or not) against a valid op, in the reference checker's
    // process; problems are diagnostics on reference.py lines. Setting `cancel` stops it.
    Diagnostics checkReference(const OpSpec& spec, const std::string& referenceText,
                               const std::atomic<bool>* cancel = nullptr) const;
    // Parses the kernel and checks it against a valid op (bindings, annotations, pypto calls).
    Diagnostics checkKernel(const OpSpec& spec, const std::string& kernelText) const;
    // All three, on the texts given: what `ptowb-cli validate` and the editor report.
    Diagnostics check(const std::string& descriptionText, const std::string& referenceText,
                      const std::string& kernelText,
                      const std::atomic<bool>* cancel = nullptr) const;

private:
    void readSourceNames();

    std::string m_folder;
    std::string m_kernelFile = "kernel.py";
    std::string m_referenceFile = "reference.py";
};

} // namespace ptowb
