#include "project/new_project.h"

#include "diag/suggest.h"
#include "io/remove_tree.h"
#include "project/atomic_file.h"
#include "run/platforms.h"
#include "spec/identifiers.h"
#include "text/template_text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

std::string templateFolder(const std::string& name)
{
    for (const auto& folder : resourceFolders("templates")) {
        const auto path = fs::path(folder) / name;
        if (fs::exists(path / "op.json")) return path.string();
    }
    return {};
}

// Hidden files do not count (a fresh .git is no project), as in a file dialog.
bool holdsVisibleFiles(const std::string& folder)
{
    std::error_code ec;
    for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
        if (it->path().filename().string().front() != '.') return true;
    return false;
}

bool isHidden(const fs::path& relative)
{
    return std::any_of(relative.begin(), relative.end(),
                       [](const fs::path& part) { return part.string().front() == '.'; });
}

} // namespace

std::vector<std::string> sampleProjects()
{
    std::vector<std::string> folders = resourceFolders("projects");
    folders.push_back((fs::path(PTOWB_SOURCE_RESOURCES_DIR).parent_path() / "projects").string());
    std::vector<std::string> samples;
    std::vector<std::string> names;
    for (const auto& folder : folders) {
        std::error_code ec;
        std::vector<fs::path> found;
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (fs::exists(entry.path() / "op.json", ec)) found.push_back(entry.path());
        std::sort(found.begin(), found.end());
        for (const auto& path : found)
            if (std::find(names.begin(), names.end(), path.filename().string()) == names.end()) {
                names.push_back(path.filename().string());
                samples.push_back(path.string());
            }
    }
    return samples;
}

std::vector<std::string> templateNames()
{
    std::vector<std::string> names;
    for (const auto& folder : resourceFolders("templates")) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(folder, ec))
            if (fs::exists(entry.path() / "op.json") &&
                std::find(names.begin(), names.end(), entry.path().filename().string()) ==
                    names.end())
                names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string opTypeFor(const std::string& name)
{
    std::string out;
    bool upper = true;
    for (char c : name) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? char(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    if (out.empty() || !std::isupper(static_cast<unsigned char>(out[0]))) out = "Op" + out;
    return out;
}

std::string createProjectFromTemplate(const NewProjectOptions& options)
{
    if (const std::string why = checkIdentifier(options.name); !why.empty())
        return "op name: " + why;
    if (const std::string why = checkIdentifier(options.ns); !why.empty())
        return "namespace: " + why;
    const std::string source = templateFolder(options.templateName);
    if (source.empty()) {
        const auto names = templateNames();
        return "no template '" + options.templateName + "'" +
               didYouMean(options.templateName, names) + " (templates: " + joinQuoted(names) + ")";
    }
    std::error_code ec;
    if (fs::exists(options.folder, ec) && holdsVisibleFiles(options.folder))
        return options.folder + " exists and is not empty";
    fs::create_directories(options.folder, ec);
    if (!fs::is_directory(options.folder, ec)) return "cannot create " + options.folder;
    const std::vector<std::pair<std::string, std::string>> values{
        {"NAME", options.name}, {"NAMESPACE", options.ns}, {"OP_TYPE", opTypeFor(options.name)}};
    for (const char* file : {"op.json", "kernel.py", "reference.py"}) {
        std::string text;
        std::string error;
        if (!readTextFile((fs::path(source) / file).string(), text, error)) return error;
        if (std::string e = writeFileAtomically((fs::path(options.folder) / file).string(),
                                                fillTemplate(text, values));
            !e.empty())
            return e;
    }
    return {};
}

std::string copySampleProject(const std::string& sample, const std::string& folder)
{
    std::error_code ec;
    if (!fs::exists(fs::path(sample) / "op.json", ec))
        return sample + " is not an op project (no op.json)";
    if (fs::exists(folder, ec) && holdsVisibleFiles(folder))
        return folder + " exists and is not empty";
    // Staged beside the target and renamed into place: a copy is whole or absent.
    const std::string staging = folder + ".copying";
    removeTree(staging);
    std::string error;
    // Hidden files and folders stay behind, as do the workbench's own (.ptowb, packages); a
    // linked folder is not followed.
    for (auto it = fs::recursive_directory_iterator(sample, ec);
         error.empty() && !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const fs::path relative = it->path().lexically_relative(sample);
        if (isHidden(relative) || *relative.begin() == "packages") {
            if (it->is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        const fs::path to = fs::path(staging) / relative;
        std::error_code copyError;
        if (it->is_directory(copyError)) {
            fs::create_directories(to, copyError);
            continue;
        }
        if (!it->is_regular_file(copyError)) continue;
        fs::create_directories(to.parent_path(), copyError);
        if (copyError || !fs::copy_file(it->path(), to, copyError))
            error = "cannot copy " + it->path().string() + " to " + to.string();
    }
    // An empty target folder (not a link to one) gives way to the staged copy.
    if (!fs::is_symlink(folder, ec) && fs::is_directory(folder, ec)) fs::remove(folder, ec);
    if (error.empty() && (fs::rename(staging, folder, ec), ec)) error = "cannot create " + folder;
    if (!error.empty()) removeTree(staging);
    return error;
}

} // namespace ptowb
