#include "run/platforms.h"

#include "diag/suggest.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace ptowb {

namespace {

std::vector<std::filesystem::path> folders()
{
    std::vector<std::filesystem::path> out;
    for (const auto& f : resourceFolders("platforms"))
        out.emplace_back(f);
    return out;
}

} // namespace

std::vector<std::string> resourceFolders(const std::string& sub)
{
    std::vector<std::string> out;
    if (const char* env = std::getenv("PTOWB_RESOURCES_DIR"); env && *env)
        out.push_back((std::filesystem::path(env) / sub).string());
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) out.push_back((exe.parent_path().parent_path() / "share" / "ptowb" / sub).string());
    out.push_back((std::filesystem::path(PTOWB_SOURCE_RESOURCES_DIR) / sub).string());
    return out;
}

std::vector<std::string> platformNames()
{
    std::vector<std::string> names;
    for (const auto& folder : folders()) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
            if (entry.path().extension() == ".json") {
                const std::string name = entry.path().stem().string();
                if (std::find(names.begin(), names.end(), name) == names.end())
                    names.push_back(name);
            }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string findPlatformFile(const std::string& nameOrPath, std::string& error)
{
    if (nameOrPath.size() > 5 && nameOrPath.substr(nameOrPath.size() - 5) == ".json") {
        if (std::filesystem::exists(nameOrPath)) return nameOrPath;
        error = "platform file " + nameOrPath + " does not exist";
        return {};
    }
    for (const auto& folder : folders()) {
        const auto path = folder / (nameOrPath + ".json");
        if (std::filesystem::exists(path)) return path.string();
    }
    const auto names = platformNames();
    error = "no platform '" + nameOrPath + "'" + didYouMean(nameOrPath, names) +
            " (known: " + joinQuoted(names) + ")";
    return {};
}

} // namespace ptowb
