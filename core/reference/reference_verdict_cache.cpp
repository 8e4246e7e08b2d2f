#include "reference/reference_verdict_cache.h"

#include "digest/sha256.h"
#include "interpreter/interpreter.h"
#include "io/atomic_write.h"
#include "reference/reference_checker.h"
#include "reference/reference_program.h"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace ptowb {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Bumped whenever what a verdict means changes (the checks, the protocol, this file's layout).
constexpr const char* kFormat = "ptowb-reference-verdict/1";
// An answer lists diagnostics of one reference; far beyond any real one, and a bound on reading.
constexpr std::size_t kMaxEntryBytes = std::size_t(4) << 20;

// Path, size and modification time of the file `path` names, its links followed: a rebuilt
// checker or an upgraded libtorch is a different identity.
std::string fileIdentity(const std::string& path)
{
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    struct stat st
    {
    };
    if (ec || ::stat(real.c_str(), &st) != 0) return path + ":-;";
    return real.string() + ":" + std::to_string(st.st_size) + ":" +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ";";
}

std::string checkerIdentity(const std::string& checkerPath)
{
    std::string out = fileIdentity(checkerPath);
    for (const std::string& module : referenceModulePaths(checkerPath))
        out += fileIdentity(module);
#ifdef PTOWB_TORCH_LIBRARY_DIR
    out += fileIdentity(PTOWB_TORCH_LIBRARY_DIR "/libtorch_cpu.so");
#endif
    return out;
}

// Whole file, or nothing: not a link, not a special file, not larger than kMaxEntryBytes.
std::optional<std::string> readEntry(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return std::nullopt;
    struct stat st
    {
    };
    std::string text;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && std::size_t(st.st_size) <= kMaxEntryBytes) {
        text.resize(std::size_t(st.st_size));
        std::size_t got = 0;
        while (got < text.size()) {
            const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += std::size_t(n);
        }
        text.resize(got);
    }
    ::close(fd);
    if (text.empty()) return std::nullopt;
    return text;
}

std::string entryDigest(const std::string& key, const std::string& answer)
{
    return sha256Hex(std::string(kFormat) + '\n' + key + '\n' + answer);
}

} // namespace

std::string referenceVerdictKey(const std::string& checkerPath, const std::string& request)
{
    return sha256Hex(std::string(kFormat) + '\n' + checkerIdentity(checkerPath) + '\n' +
                     sha256Hex(request));
}

std::string referenceVerdictPath(const std::string& key)
{
    return (fs::path(interpreter::cacheRoot()) / "reference-verdicts" / (key + ".json")).string();
}

std::optional<Diagnostics> loadReferenceVerdict(const std::string& key)
{
    const auto text = readEntry(referenceVerdictPath(key));
    if (!text) return std::nullopt;
    const json entry = json::parse(*text, nullptr, false);
    if (!entry.is_object()) return std::nullopt;
    auto field = [&](const char* name) {
        const auto it = entry.find(name);
        return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string answer = field("answer");
    if (field("format") != kFormat || field("key") != key || answer.empty() ||
        field("digest") != entryDigest(key, answer))
        return std::nullopt;
    // The same reading as a checker's answer gets: a malformed one is no verdict.
    return parseReferenceCheckAnswer(answer, "reference.py");
}

void storeReferenceVerdict(const std::string& key, const Diagnostics& diagnostics)
{
    const std::string path = referenceVerdictPath(key);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec) return;
    const std::string answer = referenceCheckAnswer(diagnostics);
    const json entry = {{"format", kFormat},
                        {"key", key},
                        {"answer", answer},
                        {"digest", entryDigest(key, answer)}};
    writeAtomically(path, {entry.dump(1)});
}

} // namespace ptowb
