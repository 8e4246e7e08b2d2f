#include "tensor/tensor.h"

#include "rules/shape_functions.h"
#include "tensor/half.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ptowb {

namespace {
// 64-byte alignment lets vectorised loops and mapped files be treated alike.
struct AlignedBuffer
{
    explicit AlignedBuffer(std::size_t n)
        : data(static_cast<std::byte*>(
              ::operator new(std::max<std::size_t>(n, 1), std::align_val_t(64))))
    {
        std::memset(data, 0, n);
    }
    ~AlignedBuffer() { ::operator delete(data, std::align_val_t(64)); }
    AlignedBuffer(const AlignedBuffer&) = delete;
    AlignedBuffer& operator=(const AlignedBuffer&) = delete;
    std::byte* data;
};
} // namespace

Tensor::Tensor(DType dtype, std::vector<std::int64_t> shape)
    : m_dtype(dtype), m_shape(std::move(shape))
{
    m_numel = std::max<std::int64_t>(elementCount(m_shape), 0);
    auto buffer = std::make_shared<AlignedBuffer>(byteSize());
    m_data = buffer->data;
    m_storage = std::move(buffer);
    m_writable = true;
}

Tensor Tensor::view(DType dtype, std::vector<std::int64_t> shape, std::shared_ptr<const void> owner,
                    const std::byte* data)
{
    Tensor t;
    t.m_dtype = dtype;
    t.m_shape = std::move(shape);
    t.m_numel = std::max<std::int64_t>(elementCount(t.m_shape), 0);
    t.m_storage = std::move(owner);
    t.m_data = const_cast<std::byte*>(data);
    t.m_writable = false;
    return t;
}

std::byte* Tensor::mutableBytes()
{
    if (!m_writable || m_storage.use_count() > 1) {
        Tensor copy(m_dtype, m_shape);
        if (byteSize()) std::memcpy(copy.m_data, m_data, byteSize());
        *this = std::move(copy);
    }
    return m_data;
}

double Tensor::at(std::int64_t k) const
{
    const std::byte* p = m_data + std::size_t(k) * std::size_t(dtypeInfo(m_dtype).itemSize);
    auto load = [p](auto sample) {
        decltype(sample) v;
        std::memcpy(&v, p, sizeof v);
        return v;
    };
    switch (m_dtype) {
    case DType::Bool:
        return load(std::uint8_t()) != 0 ? 1.0 : 0.0;
    case DType::UInt8:
        return load(std::uint8_t());
    case DType::Int8:
        return load(std::int8_t());
    case DType::Int16:
        return load(std::int16_t());
    case DType::Int32:
        return load(std::int32_t());
    case DType::Int64:
        return double(load(std::int64_t()));
    case DType::Float16:
        return half::fp16ToFloat(load(std::uint16_t()));
    case DType::BFloat16:
        return half::bf16ToFloat(load(std::uint16_t()));
    case DType::Float32:
        return load(float());
    case DType::Float64:
        return load(double());
    }
    return 0;
}

namespace {
// Nearest integer, saturated to I's range (NaN gives 0): a plain cast of an out-of-range
// double is undefined behaviour.
template <class I> I saturate(double v)
{
    if (std::isnan(v)) return 0;
    const double r = std::nearbyint(v);
    if (r <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (r >= double(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return I(r);
}
} // namespace

void Tensor::set(std::int64_t k, double v)
{
    std::byte* p = mutableBytes() + std::size_t(k) * std::size_t(dtypeInfo(m_dtype).itemSize);
    auto store = [p](auto value) { std::memcpy(p, &value, sizeof value); };
    switch (m_dtype) {
    case DType::Bool:
        store(std::uint8_t(v != 0));
        break;
    case DType::UInt8:
        store(saturate<std::uint8_t>(v));
        break;
    case DType::Int8:
        store(saturate<std::int8_t>(v));
        break;
    case DType::Int16:
        store(saturate<std::int16_t>(v));
        break;
    case DType::Int32:
        store(saturate<std::int32_t>(v));
        break;
    case DType::Int64:
        store(saturate<std::int64_t>(v));
        break;
    case DType::Float16:
        store(half::floatToFp16(float(v)));
        break;
    case DType::BFloat16:
        store(half::floatToBf16(float(v)));
        break;
    case DType::Float32:
        store(float(v));
        break;
    case DType::Float64:
        store(v);
        break;
    }
}

std::vector<std::int64_t> Tensor::unravel(std::int64_t k) const
{
    return unravelIndex(m_shape, k);
}

std::vector<std::int64_t> unravelIndex(const std::vector<std::int64_t>& shape, std::int64_t k)
{
    std::vector<std::int64_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const std::int64_t extent = std::max<std::int64_t>(shape[d], 1);
        index[d] = k % extent;
        k /= extent;
    }
    return index;
}

std::string describe(const Tensor& tensor)
{
    return std::string(dtypeName(tensor.dtype())) + shapefn::toString(tensor.shape());
}

} // namespace ptowb
