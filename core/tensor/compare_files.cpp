#include "tensor/compare_files.h"

#include <algorithm>
#include <array>
#include <future>
#include <memory>

namespace ptowb {

namespace {

// One file's two block buffers, and the first elements of one as a tensor.
class Buffers
{
public:
    Buffers(DType dtype, std::int64_t elements) : m_dtype(dtype)
    {
        const std::size_t bytes = std::size_t(elements) * dtypeInfo(dtype).itemSize;
        for (auto& slot : m_slots)
            slot.reset(new std::byte[bytes]);
    }
    std::byte* data(int slot) { return m_slots[std::size_t(slot)].get(); }
    Tensor view(int slot, std::int64_t count) const
    {
        const auto& buffer = m_slots[std::size_t(slot)];
        return Tensor::view(m_dtype, {count}, buffer, buffer.get());
    }

private:
    DType m_dtype;
    std::array<std::shared_ptr<std::byte[]>, 2> m_slots;
};

} // namespace

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
    BlockComparison comparison(a.shape(), a.dtype(), e.shape(), e.dtype(), options);
    if (!comparison.comparable()) return comparison.finish();

    const std::int64_t n = a.numel();
    const auto item = std::max(dtypeInfo(a.dtype()).itemSize, dtypeInfo(e.dtype()).itemSize);
    const std::int64_t block =
        std::clamp<std::int64_t>(std::int64_t(blockBytes) / item, 1, std::max<std::int64_t>(n, 1));
    Buffers bufA(a.dtype(), block), bufE(e.dtype(), block);
    auto read = [&](int slot, std::int64_t first) {
        const std::int64_t count = std::min(block, n - first);
        std::string error = a.read(first, count, bufA.data(slot));
        if (error.empty()) error = e.read(first, count, bufE.data(slot));
        return error;
    };
    // Block k is read into slot k % 2 while block k - 1 is compared.
    std::future<std::string> pending;
    if (n > 0) pending = std::async(std::launch::async, read, 0, std::int64_t(0));
    for (std::int64_t first = 0, k = 0; first < n; first += block, ++k) {
        if (std::string error = pending.get(); !error.empty()) return error;
        const int slot = int(k % 2);
        if (first + block < n) pending = std::async(std::launch::async, read, 1 - slot, first + block);
        const std::int64_t count = std::min(block, n - first);
        comparison.add(bufA.view(slot, count), bufE.view(slot, count));
    }
    return comparison.finish();
}

} // namespace ptowb
