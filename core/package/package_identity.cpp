#include "package/package_identity.h"

#include "digest/sha256.h"
#include "package/package_export.h"
#include "project/atomic_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxHashedBytes = std::uintmax_t(64)
                                           << 20; // a kernel or an op.json, generously

// A regular file inside the package (symbolic links resolved, none leaving it), or "" with
// `error` set: a manifest is data, and must not make this read /dev/zero or a file elsewhere.
std::string fileInPackage(const fs::path& package, const std::string& relative, std::string& error)
{
    std::error_code ec;
    const std::string root = fs::canonical(fs::absolute(package, ec), ec).string();
    std::error_code missing;
    const fs::path path = fs::canonical(fs::absolute(package / relative, ec), missing);
    if (relative.empty() || missing || path.string().rfind(root + "/", 0) != 0 ||
        !fs::is_regular_file(path, ec) || fs::file_size(path, ec) > kMaxHashedBytes) {
        error = "\"" + relative + "\" is no file of the package " + root;
        return {};
    }
    return path.string();
}

std::string fileSha256(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    Sha256 hash;
    std::vector<char> buffer(1 << 16);
    for (std::uintmax_t left = kMaxHashedBytes; left > 0 && in;) {
        in.read(buffer.data(), std::streamsize(std::min<std::uintmax_t>(left, buffer.size())));
        hash.add(std::string_view(buffer.data(), std::size_t(in.gcount())));
        left -= std::uintmax_t(in.gcount());
    }
    return hash.hex();
}

} // namespace

std::variant<SpecLoadResult, std::string> loadPackageOp(const std::string& packageDir)
{
    const std::string path = (fs::path(packageDir) / "op.json").string();
    std::string text;
    std::string error;
    if (!readTextFile(path, text, error))
        return error + " (is " + packageDir + " an exported package?)";
    // Kernel and reference are looked up beside it; nothing runs.
    return loadOpSpecText(text, path, "");
}

std::variant<onnxtools::PackageIdentity, std::string>
readPackageIdentity(const std::string& packageDir)
{
    const fs::path package = packageDir;
    const std::string manifestPath = (package / kManifestFile).string();
    std::string text;
    std::string error;
    if (!readTextFile(manifestPath, text, error)) return error;
    const auto manifest = nlohmann::json::parse(text, nullptr, false);
    if (!manifest.is_object()) return manifestPath + " is not a JSON object";
    auto field = [&](const char* key) {
        const auto it = manifest.find(key);
        return it != manifest.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    onnxtools::PackageIdentity identity;
    identity.op = field("namespace") + "::" + field("name");
    const std::string opJson = fileInPackage(package, "op.json", error);
    const std::string kernel =
        opJson.empty() ? std::string() : fileInPackage(package, field("kernel_file"), error);
    if (kernel.empty()) return error;
    identity.opJsonSha256 = fileSha256(opJson);
    identity.kernelSha256 = fileSha256(kernel);
    return identity;
}

} // namespace ptowb
