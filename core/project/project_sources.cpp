#include "project/project_sources.h"

#include "digest/sha256.h"
#include "kernel/kernel_modules.h"
#include "project/atomic_file.h"

#include <filesystem>

namespace ptowb {

codegen::GlueSource ProjectSources::glueSource() const
{
    return codegen::GlueSource{loaded.spec, opJson, kernel, reference, kernelModules};
}

std::string ProjectSources::inputsDigest() const
{
    std::string all = opJson + '\0' + kernel + '\0' + reference;
    for (const auto& [path, text] : kernelModules)
        all += '\0' + path + '\0' + text;
    return sha256Hex(all);
}

ProjectTexts ProjectSources::texts(const Project& project) const
{
    return ProjectTexts{project.folder(), opJson, kernel, reference};
}

ProjectSources readProjectSources(const Project& project)
{
    ProjectSources sources;
    std::string description;
    if (!readTextFile(project.descriptionPath(), description, sources.error)) return sources;
    sources.loaded = project.validate(description);
    if (!sources.loaded.usable()) return sources;
    if (!readTextFile(project.kernelPath(), sources.kernel, sources.error) ||
        !readTextFile(project.referencePath(), sources.reference, sources.error)) {
        sources.kernel.clear();
        sources.reference.clear();
        return sources;
    }
    for (const std::string& module :
         kernel::kernelModules(project.folder(), sources.loaded.spec.kernel.file)) {
        std::string text;
        if (!readTextFile((std::filesystem::path(project.folder()) / module).string(), text,
                          sources.error)) {
            sources.kernel.clear();
            sources.reference.clear();
            sources.kernelModules.clear();
            return sources;
        }
        sources.kernelModules.emplace_back(module, std::move(text));
    }
    sources.opJson = std::move(description);
    return sources;
}

std::string writeGeneratedFiles(const std::vector<codegen::GeneratedFile>& files,
                                const std::string& folder)
{
    namespace fs = std::filesystem;
    for (const codegen::GeneratedFile& file : files) {
        const fs::path path = fs::path(folder) / file.path;
        std::error_code ec;
        fs::create_directories(path.parent_path(), ec);
        if (!fs::is_directory(path.parent_path(), ec))
            return "cannot create the folder of " + path.string();
        if (std::string error = writeFileAtomically(path.string(), file.content); !error.empty())
            return error;
    }
    return {};
}

} // namespace ptowb
