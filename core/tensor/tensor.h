#pragma once

#include "types/dtype.h"
#include "types/shape.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ptowb {

// A dense, C-ordered tensor: shape, dtype and raw bytes. Storage is shared and may be a
// read-only memory mapping of a file; writing through a mapped tensor copies it first.
// Deliberately free of torch so that widgets and tools can hold tensors.
class Tensor
{
public:
    Tensor() = default;
    Tensor(DType dtype, std::vector<std::int64_t> shape); // zero-filled

    // Wraps bytes owned elsewhere (e.g. a mapping); `owner` keeps them alive.
    static Tensor view(DType dtype, std::vector<std::int64_t> shape,
                       std::shared_ptr<const void> owner, const std::byte* data);

    bool isValid() const { return m_storage != nullptr; }
    DType dtype() const { return m_dtype; }
    const std::vector<std::int64_t>& shape() const { return m_shape; }
    std::int64_t numel() const { return m_numel; }
    std::size_t byteSize() const
    {
        return std::size_t(m_numel) * std::size_t(dtypeInfo(m_dtype).itemSize);
    }

    const std::byte* bytes() const { return m_data; }
    std::byte* mutableBytes();

    template <class T> std::span<const T> values() const
    {
        return {reinterpret_cast<const T*>(m_data), std::size_t(m_numel)};
    }
    template <class T> std::span<T> mutableValues()
    {
        return {reinterpret_cast<T*>(mutableBytes()), std::size_t(m_numel)};
    }

    // Element k (flat, C order) as a double; fp16 and bf16 are decoded exactly.
    double at(std::int64_t k) const;
    // Stores v rounded to the tensor's dtype: nearest-even for fp16/bf16, nearest and
    // saturated for integers (NaN stores 0), non-zero is true for bool.
    void set(std::int64_t k, double v);

    // Multi-dimensional index of flat element k.
    std::vector<std::int64_t> unravel(std::int64_t k) const;

private:
    DType m_dtype = DType::Float32;
    std::vector<std::int64_t> m_shape;
    std::int64_t m_numel = 0;
    std::shared_ptr<const void> m_storage;
    std::byte* m_data = nullptr;
    bool m_writable = false;
};

std::string describe(const Tensor& tensor); // "float16[4, 64]"

// The multi-dimensional index of flat element k (C order) of a tensor of `shape`.
std::vector<std::int64_t> unravelIndex(const std::vector<std::int64_t>& shape, std::int64_t k);

} // namespace ptowb
