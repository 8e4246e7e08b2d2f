#include "interpreter/interpreter.h"

#include "interpreter/child_process.h"
#include "io/atomic_write.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace ptowb::interpreter {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kFix = " (choose another in Settings ▸ Python interpreter, with --python or "
                         "with PTOWB_PYTHON)";

std::vector<std::string> strings(const json& j, const char* key)
{
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const auto& item : j[key])
            if (item.is_string()) out.push_back(item.get<std::string>());
    return out;
}

std::string text(const json& j, const char* key)
{
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

// A bare name (`python3`) is looked up on PATH as a shell would; the venv's own bin/python3 is
// kept as found (not resolved through its symlink), or the venv would be lost.
std::string onPath(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t start = 0; start <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
        const fs::path candidate = fs::path(dir) / name;
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate.string();
        start = end + 1;
    }
    return name;
}

} // namespace

std::string defaultPython()
{
#ifdef PTOWB_DEFAULT_PYTHON // the build's Python3_EXECUTABLE
    return PTOWB_DEFAULT_PYTHON;
#else
    return "/usr/bin/python3";
#endif
}

std::string choosePython(const std::string& chosen)
{
    std::string path = chosen;
    if (path.empty())
        if (const char* env = std::getenv("PTOWB_PYTHON"); env && *env) path = env;
    if (path.empty()) path = defaultPython();
    if (!path.empty() && path.find('/') == std::string::npos) {
        path = onPath(path);
        if (path.find('/') == std::string::npos) return path; // on no PATH: said so by the probe
    }
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    return ec ? path : absolute.lexically_normal().string();
}

namespace {

Interpreter fromProbe(const std::string& python, const json& j)
{
    Interpreter i;
    i.path = python;
    i.python = text(j, "python");
    if (j.contains("version_info") && j["version_info"].is_array() &&
        j["version_info"].size() >= 2 && j["version_info"][0].is_number_integer() &&
        j["version_info"][1].is_number_integer()) {
        i.major = j["version_info"][0].get<int>();
        i.minor = j["version_info"][1].get<int>();
    }
    i.implementation = text(j, "implementation");
    i.extSuffix = text(j, "ext_suffix");
    i.pythonInclude = text(j, "python_include");
    i.torch = text(j, "torch");
    i.torchError = text(j, "torch_error");
    i.cxx11Abi = j.value("cxx11_abi", true);
    i.torchDir = text(j, "torch_dir");
    i.torchLibDir = text(j, "torch_lib_dir");
    i.torchInclude = strings(j, "torch_include");
    i.pypto = text(j, "pypto");
    i.torchNpu = text(j, "torch_npu");
    return i;
}

// The probe's own answer (a JSON object), or why there is none.
std::variant<json, std::string> runProbe(const std::string& python, const std::string& probeScript,
                                         double timeoutSeconds)
{
    std::error_code ec;
    if (!fs::exists(python, ec))
        return "the Python interpreter " + python + " does not exist" + kFix;
    if (fs::is_directory(python, ec) || access(python.c_str(), X_OK) != 0)
        return "the Python interpreter " + python + " is not an executable file" + kFix;
    const ChildResult r = runChild({python, "-E", probeScript}, timeoutSeconds);
    if (!r.startError.empty())
        return "cannot start the Python interpreter " + python + ": " + r.startError + kFix;
    if (r.timedOut)
        return "the Python interpreter " + python + " did not answer within " +
               std::to_string(int(timeoutSeconds)) + " s" + kFix;
    const auto brace = r.out.find_last_of('{');
    json j = brace == std::string::npos ? json() : json::parse(r.out.substr(brace), nullptr, false);
    if (r.exitCode == 0 && j.is_object()) return j;
    std::string tail = r.err.size() > 400 ? r.err.substr(r.err.size() - 400) : r.err;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' '))
        tail.pop_back();
    return python + " is not a Python 3.9 or newer interpreter that the workbench can use" +
           (tail.empty() ? std::string() : " (" + tail + ")") + kFix;
}

// What must stay the same for a remembered probe to hold: the interpreter and torch's files.
std::string signature(const std::string& python, const std::string& torchDir)
{
    std::string out;
    for (const fs::path& p : {fs::path(python), fs::path(torchDir) / "__init__.py",
                              fs::path(torchDir) / "version.py", fs::path(torchDir)}) {
        std::error_code ec;
        const auto time = fs::last_write_time(p, ec);
        out += p.string() + ":" + (ec ? "-" : std::to_string(time.time_since_epoch().count()));
        const auto size = fs::is_regular_file(p, ec) ? fs::file_size(p, ec) : 0;
        out += ":" + std::to_string(ec ? 0 : size) + ";";
    }
    return out;
}

} // namespace

std::variant<Interpreter, std::string> probe(const std::string& python,
                                             const std::string& probeScript, double timeoutSeconds)
{
    auto answer = runProbe(python, probeScript, timeoutSeconds);
    if (auto* e = std::get_if<std::string>(&answer)) return *e;
    return fromProbe(python, std::get<json>(answer));
}

std::variant<Interpreter, std::string> probeRemembered(const std::string& python,
                                                       const std::string& probeScript,
                                                       const std::string& cacheDir)
{
    const fs::path file = fs::path(cacheDir) / "interpreters" /
                          (std::to_string(std::hash<std::string>{}(python)) + ".json");
    std::ifstream in(file);
    const json cached = in ? json::parse(in, nullptr, false) : json();
    if (cached.is_object() && cached.value("path", "") == python && cached.contains("probe") &&
        cached["probe"].is_object() &&
        cached.value("signature", "") == signature(python, text(cached["probe"], "torch_dir")))
        return fromProbe(python, cached["probe"]);
    auto answer = runProbe(python, probeScript, 60);
    if (auto* e = std::get_if<std::string>(&answer)) return *e;
    const json& probed = std::get<json>(answer);
    if (!text(probed, "torch").empty()) { // a missing torch is probed again next time
        const json record = {{"path", python},
                             {"signature", signature(python, text(probed, "torch_dir"))},
                             {"probe", probed}};
        std::error_code ec;
        fs::create_directories(file.parent_path(), ec);
        writeAtomically(file.string(), {record.dump(1)});
    }
    return fromProbe(python, probed);
}

std::string unsuitability(const Interpreter& i)
{
    if (i.implementation != "CPython" || i.major != 3 || i.minor < 9)
        return i.path + " is " + (i.implementation.empty() ? "Python" : i.implementation) + " " +
               i.python + "; kernels need CPython 3.9 or newer" + kFix;
    if (i.torch.empty())
        return i.path + " (Python " + i.python + ") cannot import torch" +
               (i.torchError.empty() ? std::string() : " (" + i.torchError + ")") +
               "; install torch into it (" + i.path + " -m pip install torch)" + kFix;
    return {};
}

std::string describe(const Interpreter& i)
{
    std::string out = "Python " + i.python + " at " + i.path;
    out += i.torch.empty() ? ", no torch" : ", torch " + i.torch;
    if (!i.pypto.empty()) out += ", pypto " + i.pypto;
    if (!i.torchNpu.empty()) out += ", torch_npu " + i.torchNpu;
    return out;
}

std::string cacheRoot()
{
    if (const char* env = std::getenv("PTOWB_CACHE"); env && *env) return env;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return (fs::path(xdg) / "ptowb").string();
    const char* home = std::getenv("HOME");
    return (fs::path(home && *home ? home : "/tmp") / ".cache" / "ptowb").string();
}

std::variant<Interpreter, std::string> kernelInterpreter(const std::string& chosen)
{
    const std::string python = choosePython(chosen);
    auto probed = probeRemembered(python, workerLibDir() + "/python/ptowb_probe.py", cacheRoot());
    if (auto* i = std::get_if<Interpreter>(&probed))
        if (std::string e = unsuitability(*i); !e.empty()) return e;
    return probed;
}

std::string workerLibDir()
{
    if (const char* env = std::getenv("PTOWB_KERNEL_WORKER"); env && *env)
        return fs::path(env).parent_path().string();
    std::error_code ec;
    const auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // the launcher itself, an installed ptowb (bin/ beside lib/ptowb), or the build tree
        if (fs::exists(exe.parent_path() / "python" / "ptowb_probe.py", ec))
            return exe.parent_path().string();
        const auto installed = exe.parent_path().parent_path() / "lib" / "ptowb";
        if (fs::exists(installed / "python" / "ptowb_probe.py", ec)) return installed.string();
    }
#ifdef PTOWB_WORKER_LIB_DIR // the build tree's
    return PTOWB_WORKER_LIB_DIR;
#else
    return {};
#endif
}

} // namespace ptowb::interpreter
