#include "io/atomic_write.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace ptowb {

std::string writeAtomically(const std::string& path, std::initializer_list<std::string_view> pieces)
{
    // Unique per process and per call, so concurrent writers never share a temporary.
    static std::atomic<unsigned> counter{0};
    const std::string temporary =
        path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    std::FILE* f = std::fopen(temporary.c_str(), "wb");
    if (!f) return "cannot write " + path + ": " + std::strerror(errno);
    bool ok = true;
    for (std::string_view piece : pieces)
        ok = ok && (piece.empty() || std::fwrite(piece.data(), 1, piece.size(), f) == piece.size());
    int error = errno;
    if (std::fclose(f) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        std::remove(temporary.c_str());
        return "cannot write " + path + ": " + std::strerror(error);
    }
    return {};
}

} // namespace ptowb
