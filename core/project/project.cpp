#include "project/project.h"

#include "io/clean_path.h"
#include "io/remove_tree.h"
#include "kernel/kernel_check.h"
#include "project/atomic_file.h"
#include "reference/reference_checker.h"
#include "spec/source_check.h"

#include "json/json_document.h"
#include <QStandardPaths>
#include <filesystem>

namespace ptowb {

namespace fs = std::filesystem;

std::optional<Project> Project::open(const std::string& folderOrFile, std::string& error)
{
    std::error_code ec;
    std::string folder = cleanAbsolutePath(folderOrFile);
    if (fs::is_regular_file(folder, ec)) folder = fs::path(folder).parent_path().string();
    if (folder.empty() || !fs::is_directory(folder, ec)) {
        error = folderOrFile + " is not a folder";
        return std::nullopt;
    }
    Project project;
    project.m_folder = std::move(folder);
    if (!fs::is_regular_file(project.descriptionPath(), ec)) {
        error = project.m_folder + " has no " + kDescriptionFile + ": it is not an op project";
        return std::nullopt;
    }
    project.readSourceNames();
    return project;
}

std::string Project::name() const
{
    return fs::path(m_folder).filename().string();
}

std::string Project::descriptionPath() const
{
    return (fs::path(m_folder) / kDescriptionFile).string();
}
std::string Project::kernelPath() const
{
    return (fs::path(m_folder) / m_kernelFile).string();
}
std::string Project::referencePath() const
{
    return (fs::path(m_folder) / m_referenceFile).string();
}

void Project::readSourceNames()
{
    std::string text;
    std::string error;
    if (!readTextFile(descriptionPath(), text, error)) return;
    const JsonDocument doc = JsonDocument::parse(text, "");
    if (!doc.ok() || !doc.root().is_object()) return;
    auto fileOf = [&](const char* key, std::string& into) {
        const auto& root = doc.root();
        if (!root.contains(key) || !root[key].is_object() || !root[key].contains("file") ||
            !root[key]["file"].is_string())
            return;
        const std::string file = root[key]["file"].get<std::string>();
        if (checkRelativePath(file).empty()) into = file;
    };
    fileOf("kernel", m_kernelFile);
    fileOf("reference", m_referenceFile);
}

SpecLoadResult Project::validate(const std::string& descriptionText) const
{
    return loadOpSpecText(descriptionText, descriptionPath(), m_folder);
}

std::string userConfigFile(const std::string& name)
{
    // QStandardPaths: XDG_CONFIG_HOME, and the test mode the app's tests isolate themselves with.
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation).toStdString() +
           "/ptowb/" + name;
}

std::vector<std::string> Project::configFiles(const std::string& name) const
{
    return {userConfigFile(name), (fs::path(m_folder) / name).string()};
}

std::string Project::linkedFolderError(const std::string& path) const
{
    const std::string link = firstLinkBelow(m_folder, cleanAbsolutePath(path));
    if (link.empty()) return {};
    return link + " is a symbolic link: the workbench writes its own folders of a project "
                  "(.ptowb, packages) only inside it; remove the link";
}

std::string Project::runsFolder() const
{
    return (fs::path(m_folder) / ".ptowb/runs").string();
}

std::string Project::glueFolder() const
{
    return (fs::path(m_folder) / ".ptowb/glue").string();
}

SpecLoadResult Project::validateSaved() const
{
    return loadOpSpecFile(descriptionPath());
}

Diagnostics Project::checkReference(const OpSpec& spec, const std::string& referenceText,
                                    const std::atomic<bool>* cancel) const
{
    return checkReferenceBounded(spec, referenceText, referencePath(), cancel);
}

Diagnostics Project::checkKernel(const OpSpec& spec, const std::string& kernelText) const
{
    return kernel::checkKernelSource(kernelText, spec, kernelPath());
}

Diagnostics Project::check(const std::string& descriptionText, const std::string& referenceText,
                           const std::string& kernelText, const std::atomic<bool>* cancel) const
{
    std::error_code ec;
    SpecLoadResult result = validate(descriptionText);
    if (result.usable() && fs::exists(kernelPath(), ec)) {
        const Diagnostics kernel = checkKernel(result.spec, kernelText);
        result.diagnostics.insert(result.diagnostics.end(), kernel.begin(), kernel.end());
    }
    // A reference can only be checked against a sound description (its names and outputs).
    if (result.usable() && fs::exists(referencePath(), ec)) {
        const Diagnostics reference = checkReference(result.spec, referenceText, cancel);
        result.diagnostics.insert(result.diagnostics.end(), reference.begin(), reference.end());
    }
    return result.diagnostics;
}

} // namespace ptowb
