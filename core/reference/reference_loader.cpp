#include "reference/reference_program.h"

#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <unistd.h>

namespace ptowb {
namespace {

struct EngineHandle
{
    const ReferenceEngine* engine = nullptr;
    std::string error;
};

} // namespace

std::vector<std::string> referenceModulePaths(const std::string& executable)
{
    std::vector<std::string> paths;
    if (const char* env = std::getenv("PTOWB_REFERENCE_MODULE"); env && *env)
        return {env}; // an override, not a hint
    if (!executable.empty()) {
        const std::filesystem::path exe(executable);
        paths.push_back(
            (exe.parent_path().parent_path() / "lib" / "ptowb" / "libptowb_reference.so").string());
        paths.push_back((exe.parent_path() / "libptowb_reference.so").string());
    }
#ifdef PTOWB_REFERENCE_MODULE_BUILD_PATH
    paths.emplace_back(PTOWB_REFERENCE_MODULE_BUILD_PATH);
#endif
    return paths;
}

namespace {

const EngineHandle& engine()
{
    static const EngineHandle handle = [] {
        EngineHandle h;
        std::error_code exeError;
        const auto exe = std::filesystem::read_symlink("/proc/self/exe", exeError);
        for (const std::string& path :
             referenceModulePaths(exeError ? std::string() : exe.string())) {
            std::error_code ec;
            if (!std::filesystem::exists(path, ec)) {
                h.error = path + " does not exist";
                continue;
            }
            // Never closed: programs it made may live until exit.
            void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (!module) {
                h.error = ::dlerror();
                continue;
            }
            using Entry = const ReferenceEngine* (*)();
            auto entry = reinterpret_cast<Entry>(::dlsym(module, kReferenceEngineSymbol));
            if (!entry) {
                h.error = path + " has no " + kReferenceEngineSymbol;
                continue;
            }
            h.engine = entry();
            return h;
        }
        h.error += "; set PTOWB_REFERENCE_MODULE to the path of libptowb_reference.so";
        return h;
    }();
    return handle;
}

Diagnostic engineMissing(const std::string& file, std::string code, std::string message)
{
    Diagnostic d;
    d.file = file;
    d.line = 1;
    d.col = 1;
    d.code = std::move(code);
    d.message = std::move(message);
    return d;
}

} // namespace

ReferenceProgram::LoadResult ReferenceProgram::load(const OpSpec& spec, const std::string& source,
                                                    const std::string& fileName)
{
    const EngineHandle& h = engine();
    if (h.engine) return h.engine->load(spec, source, fileName);
    LoadResult result;
    result.diagnostics.push_back(
        engineMissing(fileName, "reference.engine",
                      "the CPU reference engine (libtorch) cannot be loaded: " + h.error));
    return result;
}

int ReferenceProgram::compilationCount()
{
    const EngineHandle& h = engine();
    return h.engine ? h.engine->compilationCount() : 0;
}

} // namespace ptowb
