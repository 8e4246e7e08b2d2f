#include "package/package_export.h"

#include "diag/suggest.h"
#include "digest/sha256.h"
#include "io/remove_tree.h"
#include "io/temporary_folder.h"
#include "package/package_archive.h"
#include "project/atomic_file.h"
#include "project/project_sources.h"
#include "run/verification.h"

#include <QLockFile>
#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace ptowb {

namespace fs = std::filesystem;

namespace {

bool cancelled(const ExportOptions& options)
{
    return options.cancel && options.cancel->load();
}

std::string baseName(const std::string& relativePath)
{
    return fs::path(relativePath).filename().string();
}

std::string packagedKernel(const OpSpec& spec)
{
    return "kernel/" + codegen::packagedKernelFile(spec);
}

// The kernel file, and the modules of the project it imports, for kernel/.
void addKernelFiles(const ProjectSources& sources, std::vector<codegen::GeneratedFile>& files)
{
    files.push_back({packagedKernel(sources.loaded.spec), sources.kernel});
    for (const auto& [module, text] : sources.kernelModules)
        files.push_back({"kernel/" + module, text});
}

// Runs the reference on every case and copies inputs, parameters and outputs into tests/.
std::string writeGoldens(const ProjectTexts& texts, const OpSpec& spec, const fs::path& package,
                         const ExportOptions& options)
{
    BackendChoice choice = makeBackend("ref", spec, texts, {});
    for (const Diagnostic& d : choice.diagnostics)
        if (d.code == "reference.todo")
            return "reference.py is still to be written, and the package's CPU implementation is "
                   "the reference: " +
                   formatDiagnostic(d);
    if (!choice.backend) {
        std::string why = choice.error;
        for (const Diagnostic& d : choice.diagnostics)
            why += formatDiagnostic(d) + '\n';
        return "the reference cannot run: " + trimmed(why);
    }
    TemporaryFolder runDir;
    if (!runDir.valid()) return "cannot create a temporary folder: " + runDir.error();
    RunOptions run;
    run.runDir = runDir.path();
    run.cancel = options.cancel;
    const std::vector<CaseRun> runs = runCases(spec, texts.dir, *choice.backend, run);
    if (cancelled(options)) return "cancelled";
    nlohmann::ordered_json cases = nlohmann::ordered_json::array();
    for (const CaseRun& r : runs) {
        if (r.record.status != "ok") return "case '" + r.caseName + "': " + r.record.error;
        const std::string target = "tests/" + r.caseName;
        nlohmann::ordered_json entry{{"name", r.caseName}};
        const fs::path source = r.dir;
        auto copy = [&](const std::string& from, const std::string& to) {
            std::error_code ec;
            fs::create_directories((package / to).parent_path(), ec);
            return fs::copy_file(source / from, package / to, ec) && !ec;
        };
        if (!copy("params.json", target + "/params.json"))
            return "cannot copy the parameters of case " + target;
        entry["inputs"] = nlohmann::ordered_json::object(); // {} for an op that reads no tensor
        for (std::size_t k = 0; k < spec.inputs.size(); ++k) {
            const std::string name = spec.inputs[k].name + ".npy";
            if (!copy("inputs/" + name, target + "/inputs/" + name))
                return "cannot copy input " + name;
            entry["inputs"][spec.inputs[k].name] = {
                {"file", target + "/inputs/" + name},
                {"shape", r.inputs[k].shape()},
                {"dtype", std::string(dtypeName(r.inputs[k].dtype()))}};
        }
        entry["parameters"] = target + "/params.json";
        // The goldens: every output, and every mutated input's value after the call ("mutated").
        const std::vector<std::string> results = spec.resultNames();
        entry["outputs"] =
            nlohmann::ordered_json::object(); // {} for an op that only updates inputs
        for (std::size_t k = 0; k < results.size() && k < r.outputs.size(); ++k) {
            const std::string name = results[k] + ".npy";
            if (!copy("outputs/" + name, target + "/golden/" + name))
                return "cannot copy output " + name;
            entry[k < spec.outputs.size() ? "outputs" : "mutated"][results[k]] = {
                {"file", target + "/golden/" + name},
                {"shape", r.outputs[k].shape()},
                {"dtype", std::string(dtypeName(r.outputs[k].dtype()))}};
        }
        cases.push_back(entry);
    }
    if (cancelled(options)) return "cancelled";
    const std::string text = nlohmann::ordered_json{{"cases", cases}}.dump(2) + "\n";
    return writeFileAtomically((package / "tests/cases.json").string(), text);
}

std::string writeManifest(const fs::path& package, const ProjectSources& sources)
{
    nlohmann::ordered_json files = nlohmann::ordered_json::object();
    std::vector<std::string> paths;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(package, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (std::error_code e; it->is_regular_file(e))
            paths.push_back(it->path().lexically_relative(package).string());
    if (ec) return "cannot read " + package.string() + ": " + ec.message();
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
        std::ifstream in(package / path, std::ios::binary);
        if (!in) return "cannot read " + (package / path).string();
        files[path] = sha256Hex(std::string(std::istreambuf_iterator<char>(in), {}));
    }
    const OpSpec& spec = sources.loaded.spec;
    const nlohmann::ordered_json manifest{
        {"format", kPackageFormat},
        {"name", spec.name},
        {"namespace", spec.ns},
        {"op_type", spec.opType},
        {"version", spec.version},
        {"op_json_sha256", sha256Hex(sources.opJson)},
        {"kernel_file", packagedKernel(spec)},
        {"kernel_sha256", sha256Hex(sources.kernel)},
        {"reference_sha256", sha256Hex(sources.reference)},
        {"files", files},
    };
    return writeFileAtomically((package / kManifestFile).string(), manifest.dump(2) + "\n");
}

bool renamed(const std::string& from, const std::string& to)
{
    std::error_code ec;
    fs::rename(from, to, ec);
    return !ec;
}

// Moves the finished package over `target`. Where the file system can, the two folders swap in
// one atomic step, so at no moment is there no package; otherwise the old one is moved aside
// first and goes only once the new one is there (cleanLeftovers restores it after a crash).
std::string installFolder(const std::string& finished, const std::string& target)
{
    std::error_code ec;
    if (fs::exists(target, ec) &&
        ::renameat2(AT_FDCWD, finished.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
        removeTree(finished); // now the previous package (or a link that was there)
        return {};
    }
    std::string previous;
    if (fs::exists(target, ec)) {
        previous = target + ".previous";
        removeTree(previous);
        if (!renamed(target, previous))
            return "cannot replace " + target + " (is it in use or read-only?)";
    }
    if (!renamed(finished, target)) {
        if (!previous.empty()) renamed(previous, target);
        return "cannot move the package to " + target;
    }
    if (!previous.empty()) removeTree(previous);
    return {};
}

// What an export killed midway leaves in the output folder: hidden staging folders and
// archives, a half-written archive, and a package moved aside but not yet replaced (restored).
// Called with the package's lock held, so no other export is using them.
void cleanLeftovers(const fs::path& out, const std::string& packageName)
{
    const std::string patterns[] = {"." + packageName + "-??????",
                                    "." + packageName + "-??????.tar.gz*",
                                    packageName + ".tar.gz.??????"};
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(out, ec)) {
        const std::string name = entry.path().filename().string();
        if (std::any_of(std::begin(patterns), std::end(patterns), [&](const std::string& p) {
                return ::fnmatch(p.c_str(), name.c_str(), FNM_CASEFOLD) == 0;
            }))
            removeTree(entry.path().string());
    }
    const std::string target = (out / packageName).string(), previous = target + ".previous";
    if (fs::is_symlink(previous, ec)) {
        removeTree(previous); // never ours
        return;
    }
    if (!fs::is_directory(previous, ec)) return;
    if (!fs::exists(target, ec))
        renamed(previous, target);
    else
        removeTree(previous);
}

// The package copies files of the project; each must really be inside it, not a symbolic link
// (or a path through one) to a file elsewhere that would be published with the package.
std::string fileOutsideProject(const Project& project, const OpSpec& spec)
{
    std::error_code ec;
    const std::string root = fs::canonical(project.folder(), ec).string() + "/";
    std::vector<std::string> files{project.descriptionPath(), project.kernelPath(),
                                   project.referencePath()};
    for (const CaseSpec& c : spec.cases)
        for (const CaseInputSpec& in : c.inputs)
            if (in.fill.kind == FillSpec::Kind::File)
                files.push_back((fs::path(project.folder()) / in.fill.path).string());
    for (const std::string& file : files) {
        std::error_code missing; // a file that does not exist is reported where it is read
        const std::string real = fs::canonical(file, missing).string();
        if (!missing && real.rfind(root, 0) != 0)
            return file + " is a symbolic link to " + real +
                   ", outside the project; copy the file into the project to export it";
    }
    return {};
}

} // namespace

ExportResult exportPackage(const Project& project, const ExportOptions& options)
{
    ExportResult result;
    auto step = [&](const char* what) {
        if (options.progress) options.progress(what);
    };
    step("reading the project");
    const ProjectSources sources = readProjectSources(project);
    if (!sources.error.empty()) {
        result.error = sources.error;
        return result;
    }
    if (!sources.usable()) {
        result.diagnostics = sources.loaded.diagnostics;
        result.error = "the op description has errors";
        return result;
    }
    const OpSpec& spec = sources.loaded.spec;
    if (std::string error = fileOutsideProject(project, spec); !error.empty()) {
        result.error = error;
        return result;
    }
    const fs::path outFolder = options.outputFolder.empty()
                                   ? fs::path(project.folder()) / "packages"
                                   : fs::path(options.outputFolder);
    const std::string packageName = spec.name + "-" + spec.version;
    std::error_code ec;
    fs::create_directories(outFolder, ec);
    if (!fs::is_directory(outFolder, ec)) {
        result.error = "cannot create " + outFolder.string();
        return result;
    }
    // One export of a package at a time; a lock left by a killed export is taken over.
    QLockFile lock(QString::fromStdString((outFolder / ("." + packageName + ".lock")).string()));
    lock.setStaleLockTime(0);
    if (!lock.tryLock(0)) {
        result.error = "another export of " + packageName + " is running";
        return result;
    }
    cleanLeftovers(outFolder, packageName);
    TemporaryFolder staging((outFolder / ("." + packageName + "-")).string());
    if (!staging.valid()) {
        result.error = "cannot write in " + outFolder.string() + ": " + staging.error();
        return result;
    }
    const fs::path package = staging.path();

    step("generating the glue");
    std::vector<codegen::GeneratedFile> files = codegen::generateGlue(sources.glueSource());
    files.push_back({"op.json", sources.opJson});
    addKernelFiles(sources, files);
    files.push_back({"reference/" + baseName(spec.reference.file), sources.reference});
    files.push_back({"README.md", codegen::generatePackageReadme(sources.glueSource())});
    if (std::string error = writeGeneratedFiles(files, staging.path()); !error.empty()) {
        result.error = error;
        return result;
    }
    if (options.goldens) {
        step("running the reference for golden outputs");
        if (std::string error = writeGoldens(sources.texts(project), spec, package, options);
            !error.empty()) {
            result.error = error;
            return result;
        }
    }
    if (cancelled(options)) {
        result.error = "cancelled";
        return result;
    }
    step("writing the manifest");
    if (std::string error = writeManifest(package, sources); !error.empty()) {
        result.error = error;
        return result;
    }
    // Normal permissions, not the 0700 of a temporary folder, before anyone can see it.
    fs::permissions(package,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                        fs::perms::others_read | fs::perms::others_exec,
                    ec);
    const std::string target = (outFolder / packageName).string();
    const std::string archive = target + ".tar.gz";
    const std::string newArchive = staging.path() + ".tar.gz";
    if (options.archive) {
        step("writing the archive");
        if (std::string error = writeReproducibleArchive(staging.path(), newArchive, packageName);
            !error.empty()) {
            result.error = error;
            return result;
        }
    }
    // The old archive describes the old folder: it goes before the folder is replaced, so no
    // moment pairs the new folder with it. Killed in between, there is a folder and no archive.
    if (fs::exists(archive, ec) && !fs::remove(archive, ec)) {
        fs::remove(newArchive, ec);
        result.error = "cannot replace " + archive;
        return result;
    }
    if (std::string error = installFolder(staging.path(), target); !error.empty()) {
        fs::remove(newArchive, ec);
        result.error = error;
        return result;
    }
    staging.keep();
    result.packageFolder = target;
    if (options.archive) {
        if (!renamed(newArchive, archive)) {
            result.error = "cannot move the archive to " + archive;
            return result;
        }
        result.archivePath = archive;
    }
    return result;
}

} // namespace ptowb
