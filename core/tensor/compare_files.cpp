#include "tensor/compare_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace ptowb {

std::variant<Comparison, std::string> compareNpyFiles(const std::string& actualPath,
                                                      const std::string& expectedPath,
                                                      const CompareOptions& options,
                                                      std::size_t blockBytes)
{
    auto a = NpyBlockReader::open(actualPath);
    if (auto* error = std::get_if<std::string>(&a)) return *error;
    auto e = NpyBlockReader::open(expectedPath);
    if (auto* error = std::get_if<std::string>(&e)) return *error;
    return compareNpyFiles(std::get<NpyBlockReader>(a), std::get<NpyBlockReader>(e), options,
                           blockBytes);
}

std::variant<Comparison, std::string> compareNpyFiles(const NpyBlockReader& a,
                                                      const NpyBlockReader& e,
                                                      const CompareOptions& options,
                                                      std::size_t blockBytes)
{
    const std::int64_t n = a.numel();
    const std::size_t itemA = dtypeInfo(a.dtype()).itemSize, itemE = dtypeInfo(e.dtype()).itemSize;
    const std::int64_t block = std::clamp<std::int64_t>(
        std::int64_t(blockBytes / std::max(itemA, itemE)), 1, std::max<std::int64_t>(n, 1));
    const std::int64_t blocks = (n + block - 1) / block;
    const int threads = int(std::clamp<std::int64_t>(
        std::int64_t(std::thread::hardware_concurrency()), 1, std::max<std::int64_t>(blocks, 1)));
    BlockComparison comparison(a.shape(), a.dtype(), e.shape(), e.dtype(), options, threads);
    if (!comparison.comparable()) return comparison.finish();

    // Each thread takes the next block, reads it from both files into buffers of its own and
    // compares it while it is still in the core's cache: no thread waits for another, and
    // memory is two blocks per thread.
    std::atomic<std::int64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::int64_t errorBlock = blocks;
    std::string error;
    auto work = [&](int lane) {
        const std::unique_ptr<std::byte[]> bufA(new std::byte[std::size_t(block) * itemA]);
        const std::unique_ptr<std::byte[]> bufE(new std::byte[std::size_t(block) * itemE]);
        // The views own nothing: the buffers outlive them.
        const std::shared_ptr<const void> none;
        auto view = [&](DType dtype, std::int64_t count, const std::byte* data) {
            return Tensor::view(dtype, {count}, std::shared_ptr<const void>(none, data), data);
        };
        for (std::int64_t k; !failed && (k = next++) < blocks;) {
            const std::int64_t first = k * block, count = std::min(block, n - first);
            std::string why = a.read(first, count, bufA.get());
            if (why.empty()) why = e.read(first, count, bufE.get());
            if (!why.empty()) {
                // The first block that failed names the error, whichever thread got there first.
                std::lock_guard lock(errorMutex);
                if (k < errorBlock) {
                    errorBlock = k;
                    error = std::move(why);
                }
                failed = true;
                return;
            }
            comparison.addAt(lane, first, view(a.dtype(), count, bufA.get()),
                             view(e.dtype(), count, bufE.get()));
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (auto& t : pool)
        t.join();
    if (failed) return error;
    return comparison.finish();
}

} // namespace ptowb
