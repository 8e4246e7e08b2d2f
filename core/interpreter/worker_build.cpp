#include "interpreter/worker_build.h"

#include "interpreter/child_process.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/file.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ptowb::interpreter {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// FNV-1a: a cache key, not a security boundary (the cache is the user's own).
struct Key
{
    std::uint64_t h = 14695981039346656037ull;
    void add(std::string_view bytes)
    {
        for (unsigned char c : bytes) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h ^= 0xff; // a separator, so "ab"+"c" differs from "a"+"bc"
        h *= 1099511628211ull;
    }
    std::string hex() const
    {
        char out[17];
        std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
        return out;
    }
};

std::vector<std::string> list(const json& j, const char* key)
{
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const auto& item : j[key])
            out.push_back(item.get<std::string>());
    return out;
}

// The torch library `name` in `dir`: the development link when there is one, else the
// versioned file (a torch without its -dev links still links).
std::string torchLibrary(const std::string& dir, const std::string& name)
{
    std::error_code ec;
    const fs::path plain = fs::path(dir) / ("lib" + name + ".so");
    if (fs::exists(plain, ec)) return plain.string();
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().filename().string().rfind("lib" + name + ".so.", 0) == 0)
            return entry.path().string();
    return {};
}

std::string logTail(const fs::path& log)
{
    std::string text = readFile(log);
    // The first error is the one to read; keep a screenful from it.
    const auto first = text.find("error");
    if (first != std::string::npos) text = text.substr(text.rfind('\n', first) + 1);
    if (text.size() > 3000) text = text.substr(0, 3000) + "\n…";
    return text;
}

class Builder
{
public:
    Builder(const Interpreter& i, const json& manifest, fs::path dir, const BuildProgress& progress)
        : m_i(i), m_manifest(manifest), m_dir(std::move(dir)), m_progress(progress)
    {
    }

    std::string run(const WorkerModule& out)
    {
        if (m_i.torchInclude.empty())
            return "the torch in " + m_i.path + " (" + m_i.torch +
                   ") ships no C++ headers (torch/include), which the kernel worker is built "
                   "against; install a torch that has them (PyPI's wheels do) or choose another "
                   "interpreter";
        std::vector<std::string> libs;
        for (const char* name : {"c10", "torch_cpu", "torch"})
            if (std::string lib = torchLibrary(m_i.torchLibDir, name); !lib.empty())
                libs.push_back(lib);
            else if (std::string(name) != "torch")
                return "the torch in " + m_i.path + " has no lib" + name + ".so in " +
                       m_i.torchLibDir;
        const std::vector<std::string> worker = list(m_manifest, "worker_sources");
        const std::vector<std::string> reference = list(m_manifest, "reference_sources");
        const std::vector<std::string> shared = list(m_manifest, "shared_sources");
        // The prebuilt runtime layer uses the new C++ ABI; a torch built with the old one gets
        // the runtime compiled again with it.
        const std::vector<std::string> runtime =
            m_i.cxx11Abi ? std::vector<std::string>() : list(m_manifest, "runtime_sources");
        std::vector<std::string> all = shared;
        for (const std::vector<std::string>* group : {&worker, &reference, &runtime})
            all.insert(all.end(), group->begin(), group->end());
        std::map<std::string, std::string> objects;
        if (std::string e = compile(all, objects); !e.empty()) return e;
        using Group = const std::vector<std::string>*;
        auto objectsOf = [&](std::initializer_list<Group> groups) {
            std::vector<std::string> out;
            for (const auto* g : groups)
                for (const auto& s : *g)
                    out.push_back(objects.at(s));
            if (m_i.cxx11Abi) out.push_back(m_manifest.at("runtime_archive").get<std::string>());
            return out;
        };
        m_progress("linking the kernel worker");
        if (std::string e = link(objectsOf({&worker, &shared, &runtime}), libs, out.module);
            !e.empty())
            return e;
        return link(objectsOf({&reference, &shared, &runtime}), libs, out.referenceModule);
    }

private:
    std::vector<std::string> compiler() const
    {
        std::vector<std::string> cmd;
        if (const std::string l = m_manifest.value("launcher", ""); !l.empty()) cmd.push_back(l);
        cmd.push_back(m_manifest.at("compiler").get<std::string>());
        return cmd;
    }

    std::string compile(const std::vector<std::string>& sources,
                        std::map<std::string, std::string>& objects)
    {
        std::vector<std::string> flags = {"-std=c++20",          "-O2",      "-fPIC",
                                          "-fvisibility=hidden", "-DNDEBUG", "-w"};
        flags.push_back(std::string("-D_GLIBCXX_USE_CXX11_ABI=") + (m_i.cxx11Abi ? "1" : "0"));
        for (const auto& d : list(m_manifest, "include"))
            flags.push_back("-I" + d);
        for (const auto& d : m_i.torchInclude)
            flags.push_back("-isystem" + d);
        flags.push_back("-isystem" + m_i.pythonInclude);
        const unsigned parallel = std::max(1u, std::thread::hardware_concurrency());
        std::map<pid_t, std::pair<std::string, fs::path>> running; // pid -> source, log
        std::size_t next = 0, done = 0;
        std::string failure;
        while ((next < sources.size() && failure.empty()) || !running.empty()) {
            while (next < sources.size() && running.size() < parallel && failure.empty()) {
                const std::string& source = sources[next];
                const fs::path object = m_dir / ("o" + std::to_string(next) + ".o");
                const fs::path log = m_dir / ("o" + std::to_string(next) + ".log");
                std::vector<std::string> cmd = compiler();
                cmd.insert(cmd.end(), flags.begin(), flags.end());
                cmd.insert(cmd.end(), {"-c", source, "-o", object.string()});
                std::string error;
                const pid_t pid = startChild(cmd, log.string(), error);
                if (pid < 0) return error;
                running[pid] = {source, log};
                objects[source] = object.string();
                ++next;
            }
            int status = 0;
            const pid_t pid = waitpid(-1, &status, 0);
            const auto it = running.find(pid);
            if (it == running.end()) continue;
            ++done;
            m_progress("building the kernel worker for " + m_i.path + " (torch " + m_i.torch +
                       "): " + std::to_string(done) + " of " + std::to_string(sources.size()) +
                       " compiled (" + fs::path(it->second.first).filename().string() + ")");
            if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && failure.empty())
                failure = "building the kernel worker for " + m_i.path + " (torch " + m_i.torch +
                          ") failed compiling " + it->second.first + ":\n" +
                          logTail(it->second.second);
            running.erase(it);
        }
        return failure;
    }

    std::string link(const std::vector<std::string>& objects, const std::vector<std::string>& libs,
                     const std::string& output)
    {
        std::vector<std::string> cmd = {m_manifest.at("compiler").get<std::string>(), "-shared",
                                        "-o", output};
        cmd.insert(cmd.end(), objects.begin(), objects.end());
        cmd.push_back("-Wl,-rpath," + m_i.torchLibDir);
        cmd.insert(cmd.end(), libs.begin(), libs.end());
        cmd.insert(cmd.end(), {"-ldl", "-lpthread"});
        const fs::path log = m_dir / "link.log";
        std::string error;
        const pid_t pid = startChild(cmd, log.string(), error);
        if (pid < 0) return error;
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
        return "linking the kernel worker for " + m_i.path + " failed:\n" + logTail(log);
    }

    const Interpreter& m_i;
    const json& m_manifest;
    fs::path m_dir;
    const BuildProgress& m_progress;
};

} // namespace

void pruneWorkerCache(const std::string& rootDir, const std::string& keepDir)
{
    const fs::path root(rootDir), keep(keepDir);
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> built;
    for (const auto& entry : fs::directory_iterator(root, ec))
        if (entry.is_directory(ec) && fs::exists(entry.path() / "complete", ec) &&
            entry.path() != keep)
            built.emplace_back(fs::last_write_time(entry.path() / "complete", ec), entry.path());
    if (built.size() < kKeptWorkers) return;
    std::sort(built.begin(), built.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = kKeptWorkers - 1; k < built.size(); ++k) {
        fs::remove_all(built[k].second, ec);
        fs::remove(built[k].second.string() + ".lock", ec);
    }
}

std::variant<WorkerModule, std::string>
workerModuleFor(const Interpreter& i, const std::string& libDir, const BuildProgress& progress)
{
    const fs::path manifestPath = fs::path(libDir) / "worker_build.json";
    const std::string manifestText = readFile(manifestPath);
    const json manifest = json::parse(manifestText, nullptr, false);
    if (!manifest.is_object())
        return "the kernel worker's build description " + manifestPath.string() +
               " is missing or unreadable";
    std::error_code ec;
    // The prebuilt module, beside the launcher, serves the Python and torch it was built for.
    const WorkerModule prebuilt{(fs::path(libDir) / ("_ptowb_worker" + i.extSuffix)).string(),
                                (fs::path(libDir) / "libptowb_reference.so").string()};
    if (const json& pre = manifest.value("prebuilt", json::object());
        pre.value("ext_suffix", "") == i.extSuffix && i.cxx11Abi &&
        fs::equivalent(pre.value("torch_lib_dir", ""), i.torchLibDir, ec) &&
        fs::exists(prebuilt.module, ec) && fs::exists(prebuilt.referenceModule, ec))
        return prebuilt;

    Key key;
    key.add(manifestText);
    for (const auto& file : list(manifest, "key_files"))
        key.add(readFile(file));
    for (const std::string& part : {i.extSuffix, i.pythonInclude, i.torch, i.torchLibDir,
                                    std::string(i.cxx11Abi ? "abi1" : "abi0")})
        key.add(part);
    for (const auto& d : i.torchInclude)
        key.add(d);
    const fs::path root = fs::path(cacheRoot()) / "worker";
    const fs::path dir = root / key.hex();
    WorkerModule out{(dir / ("_ptowb_worker" + i.extSuffix)).string(),
                     (dir / "libptowb_reference.so").string()};
    if (fs::exists(dir / "complete", ec)) return out;

    fs::create_directories(root, ec);
    if (ec) return "cannot create the worker cache " + root.string() + ": " + ec.message();
    const int lock =
        ::open((root / (key.hex() + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock < 0) return "cannot lock the worker cache " + root.string();
    ::flock(lock, LOCK_EX); // another process building the same module: wait for it
    struct Unlock
    {
        int fd;
        ~Unlock() { ::close(fd); }
    } unlock{lock};
    if (fs::exists(dir / "complete", ec)) return out;

    const fs::path staging = root / (key.hex() + ".building");
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    progress("building the kernel worker for " + i.path + " (torch " + i.torch +
             "), once; it is kept in " + root.string());
    WorkerModule staged{(staging / ("_ptowb_worker" + i.extSuffix)).string(),
                        (staging / "libptowb_reference.so").string()};
    Builder builder(i, manifest, staging, progress);
    if (std::string e = builder.run(staged); !e.empty()) return e;
    for (const auto& entry : fs::directory_iterator(staging, ec))
        if (entry.path().extension() == ".o" || entry.path().extension() == ".log")
            fs::remove(entry.path(), ec);
    std::ofstream(staging / "complete") << "ok\n";
    fs::remove_all(dir, ec);
    fs::rename(staging, dir, ec);
    if (ec) return "cannot move the built kernel worker into " + dir.string() + ": " + ec.message();
    pruneWorkerCache(root.string(), dir.string());
    return out;
}

} // namespace ptowb::interpreter
