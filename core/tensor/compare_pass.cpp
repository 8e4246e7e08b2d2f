#include "tensor/compare_pass.h"

#include "tensor/half.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <thread>
#include <type_traits>

namespace ptowb::comparepass {
namespace {

// Per element: its value as double and an ordinal whose difference is the ULP distance.
template <class T> struct Element;

template <> struct Element<float>
{
    static double value(float v) { return v; }
    static std::int64_t ordinal(float v)
    {
        std::int32_t i;
        std::memcpy(&i, &v, 4);
        return i < 0 ? std::int64_t(std::int32_t(0x80000000u)) - i : i;
    }
};
template <> struct Element<double>
{
    static double value(double v) { return v; }
    static std::int64_t ordinal(double v)
    {
        std::int64_t i;
        std::memcpy(&i, &v, 8);
        return i < 0 ? std::int64_t(0x8000000000000000ull) - i : i;
    }
};

const std::array<float, 65536>& fp16Table()
{
    static const std::array<float, 65536> table = [] {
        std::array<float, 65536> t{};
        for (std::uint32_t k = 0; k < 65536; ++k)
            t[k] = half::fp16ToFloat(std::uint16_t(k));
        return t;
    }();
    return table;
}

struct Fp16
{
    std::uint16_t bits;
};
struct Bf16
{
    std::uint16_t bits;
};
std::int64_t ordinal16(std::uint16_t b)
{
    return (b & 0x8000u) ? -std::int64_t(b & 0x7fffu) : std::int64_t(b);
}

template <> struct Element<Fp16>
{
    static double value(Fp16 v) { return fp16Table()[v.bits]; }
    static std::int64_t ordinal(Fp16 v) { return ordinal16(v.bits); }
};
template <> struct Element<Bf16>
{
    static double value(Bf16 v) { return half::bf16ToFloat(v.bits); }
    static std::int64_t ordinal(Bf16 v) { return ordinal16(v.bits); }
};
template <class I> struct IntElement
{
    static double value(I v) { return double(v); }
    static std::int64_t ordinal(I v) { return std::int64_t(v); }
};
template <> struct Element<std::int8_t> : IntElement<std::int8_t>
{
};
template <> struct Element<std::uint8_t> : IntElement<std::uint8_t>
{
};
template <> struct Element<std::int16_t> : IntElement<std::int16_t>
{
};
template <> struct Element<std::int32_t> : IntElement<std::int32_t>
{
};
template <> struct Element<std::int64_t> : IntElement<std::int64_t>
{
};

#define PTOWB_SCALAR_INLINE inline __attribute__((always_inline))

struct Limits
{
    double floor, atol, rtol;
    int topK;
    bool passVerify; // count what the pass_verify criterion judges (CompareOptions)
};

// PyPTO's pass verification of one finite pair (flow_verifier.h): its tolerance is
// (|a| + |e|) * rtol / 2 + atol; beyond 128 times that the pair fails outright; a pair of zeros
// is not counted at all.
PTOWB_SCALAR_INLINE void addSymmetric(double absDiff, double both, const Limits& limits,
                                      Partial& acc)
{
    const double tolerance = both * (limits.rtol / 2) + limits.atol;
    acc.symmetricErrors += absDiff > tolerance;
    acc.symmetricFailures += absDiff > tolerance * 128;
    acc.zeroPairs += both <= 0;
}

// The running state of one range: sums in a local Partial (so they can live in registers), the
// worst list in the thread's own, and the smallest error worth a look once that list is full.
struct Range
{
    Partial acc;
    Partial& out;
    const Limits& limits;
    double threshold = 0;

    // The list is ordered by error, then by index (the earlier element first among equal
    // errors), so that it holds the same elements however the tensor was split into ranges.
    void keepWorst(double absError, std::int64_t index, double a, double e)
    {
        const int k = limits.topK;
        if (k <= 0) return;
        auto better = [](const WorstEntry& x, const WorstEntry& y) {
            return x.absError != y.absError ? x.absError > y.absError : x.index < y.index;
        };
        auto& worst = out.worst; // a heap whose front is the entry to drop first
        const WorstEntry entry{absError, index, a, e};
        if (int(worst.size()) < k) {
            worst.push_back(entry);
            std::push_heap(worst.begin(), worst.end(), better);
        } else if (better(entry, worst.front())) {
            std::pop_heap(worst.begin(), worst.end(), better);
            worst.back() = entry;
            std::push_heap(worst.begin(), worst.end(), better);
        }
        if (int(worst.size()) == k) threshold = worst.front().absError;
    }

    // One pair, any values. `Ulps`: whether the ordinals mean anything (same dtype on both sides).
    template <bool Ulps>
    void add(double a, double e, std::int64_t ordA, std::int64_t ordE, std::int64_t index)
    {
        const double diff = a - e;
        // One test for the common case: a finite difference means both sides are finite.
        // (Only a double overflow gives an infinite difference of finite values; re-checked.)
        if (!std::isfinite(diff) && !(std::isfinite(a) && std::isfinite(e))) {
            acc.nanA += std::isnan(a);
            acc.nanE += std::isnan(e);
            acc.infA += std::isinf(a);
            acc.infE += std::isinf(e);
            acc.nanBoth += std::isnan(a) && std::isnan(e);
            const bool sameInfinity = std::isinf(a) && std::isinf(e) && (a > 0) == (e > 0);
            if (!sameInfinity) {
                ++acc.mismatches;
                acc.symmetricErrors += limits.passVerify;
                acc.symmetricFailures += limits.passVerify;
                keepWorst(HUGE_VAL, index, a, e);
            }
            return;
        }
        ++acc.finite;
        const double absDiff = std::fabs(diff);
        const double absE = std::fabs(e);
        const double rel = absE > limits.floor ? absDiff / absE : 0.0;
        acc.sumAbs += absDiff;
        acc.sumRel += rel;
        acc.sumSq += diff * diff;
        acc.sumAE += a * e;
        acc.sumAA += a * a;
        acc.sumEE += e * e;
        acc.sumA += a;
        acc.sumE += e;
        acc.maxAbs = std::max(acc.maxAbs, absDiff);
        acc.maxRel = std::max(acc.maxRel, rel);
        acc.mismatches += absDiff > limits.atol + limits.rtol * absE;
        if (limits.passVerify) addSymmetric(absDiff, std::fabs(a) + absE, limits, acc);
        acc.withinThousandth += rel < 1e-3;
        if constexpr (Ulps)
            acc.maxUlp = std::max(acc.maxUlp, ordA > ordE ? ordA - ordE : ordE - ordA);
        if (absDiff > threshold) keepWorst(absDiff, index, a, e);
    }
};

// W lanes of doubles and of 64-bit integers, and W floats and 32-bit integers to load them from.
template <int W> struct Lanes;
template <> struct Lanes<4>
{
    using D = double __attribute__((vector_size(32)));
    using I = long long __attribute__((vector_size(32)));
    using F = float __attribute__((vector_size(16)));
    using Bits = int __attribute__((vector_size(16)));
};
template <> struct Lanes<8>
{
    using D = double __attribute__((vector_size(64)));
    using I = long long __attribute__((vector_size(64)));
    using F = float __attribute__((vector_size(32)));
    using Bits = int __attribute__((vector_size(32)));
};
template <int W> using DV = typename Lanes<W>::D;
template <int W> using IV = typename Lanes<W>::I;
#define PTOWB_INLINE inline __attribute__((always_inline))

// Where the vector loop reads W elements at a time: their values as double and their ordinals.
// float and double load straight from the data; other dtypes through a chunk converted first.
struct FloatSource
{
    const float* a;
    const float* e;
    template <int W> static PTOWB_INLINE void loadW(const float* p, DV<W>& value, IV<W>& ordinal)
    {
        typename Lanes<W>::F f;
        typename Lanes<W>::Bits bits;
        std::memcpy(&f, p, sizeof f);
        std::memcpy(&bits, p, sizeof bits);
        value = __builtin_convertvector(f, DV<W>);
        const IV<W> wide = __builtin_convertvector(bits, IV<W>);
        ordinal = wide < 0 ? (long long)std::int32_t(0x80000000u) - wide : wide;
    }
    template <int W> PTOWB_INLINE void load(int i, DV<W>& va, DV<W>& ve, IV<W>& oa, IV<W>& oe) const
    {
        loadW<W>(a + i, va, oa);
        loadW<W>(e + i, ve, oe);
    }
    PTOWB_INLINE void one(int i, double& va, double& ve, std::int64_t& oa, std::int64_t& oe) const
    {
        va = a[i];
        ve = e[i];
        oa = Element<float>::ordinal(a[i]);
        oe = Element<float>::ordinal(e[i]);
    }
};

struct DoubleSource
{
    const double* a;
    const double* e;
    template <int W> static PTOWB_INLINE void loadW(const double* p, DV<W>& value, IV<W>& ordinal)
    {
        IV<W> bits;
        std::memcpy(&value, p, sizeof value);
        std::memcpy(&bits, p, sizeof bits);
        ordinal = bits < 0 ? (long long)0x8000000000000000ull - bits : bits;
    }
    template <int W> PTOWB_INLINE void load(int i, DV<W>& va, DV<W>& ve, IV<W>& oa, IV<W>& oe) const
    {
        loadW<W>(a + i, va, oa);
        loadW<W>(e + i, ve, oe);
    }
    PTOWB_INLINE void one(int i, double& va, double& ve, std::int64_t& oa, std::int64_t& oe) const
    {
        va = a[i];
        ve = e[i];
        oa = Element<double>::ordinal(a[i]);
        oe = Element<double>::ordinal(e[i]);
    }
};

constexpr int kChunk = 256;
struct ChunkSource
{
    alignas(64) double a[kChunk];
    alignas(64) double e[kChunk];
    alignas(64) std::int64_t ordA[kChunk];
    alignas(64) std::int64_t ordE[kChunk];

    template <int W> PTOWB_INLINE void load(int i, DV<W>& va, DV<W>& ve, IV<W>& oa, IV<W>& oe) const
    {
        std::memcpy(&va, a + i, sizeof va);
        std::memcpy(&ve, e + i, sizeof ve);
        std::memcpy(&oa, ordA + i, sizeof oa);
        std::memcpy(&oe, ordE + i, sizeof oe);
    }
    PTOWB_INLINE void one(int i, double& va, double& ve, std::int64_t& oa, std::int64_t& oe) const
    {
        va = a[i];
        ve = e[i];
        oa = ordA[i];
        oe = ordE[i];
    }
};

// The sums of n elements whose values are all finite, W lanes at a time: the formulas of
// Range::add, so every count and maximum is the same and the sums differ only in the order of
// addition. Returns false, adding nothing, when a value is NaN or Inf (then those elements take
// the per-element path, which accounts for them). PassVerify: limits.passVerify, as a template
// argument so that the loop without it does none of its work.
template <int W, bool PassVerify, class Source>
PTOWB_INLINE bool addFiniteKernel(const Source& s, int n, const Limits& limits, Partial& acc,
                                  double& chunkMaxAbs)
{
    using D = DV<W>;
    using I = IV<W>;
    const int whole = n / W * W;
    for (int i = whole; i < n; ++i) {
        double a, e;
        std::int64_t oa, oe;
        s.one(i, a, e, oa, oe);
        if (!std::isfinite(a) || !std::isfinite(e)) return false;
    }
    const D zero = D{} * 0;
    const I absMask = I{} + 0x7fffffffffffffffll;
    D sumAbs = zero, sumRel = zero, sumSq = zero, sumAE = zero, sumAA = zero, sumEE = zero,
      sumA = zero, sumE = zero, maxAbs = zero, maxRel = zero;
    I mismatches = I{}, within = I{}, maxUlp = I{}, symmetric = I{}, failures = I{}, zeros = I{};
    for (int i = 0; i < whole; i += W) {
        D a, e;
        I oa, oe;
        s.template load<W>(i, a, e, oa, oe);
        const D diff = a - e;
        const D absDiff = (D)((I)diff & absMask);
        const D absE = (D)((I)e & absMask);
        // Where |e| is at the floor the quotient is dropped (an Inf or NaN of 0/0 included).
        const D rel = (D)((I)(absDiff / absE) & (absE > limits.floor));
        sumAbs += absDiff;
        sumRel += rel;
        sumSq += diff * diff;
        sumAE += a * e;
        sumAA += a * a;
        sumEE += e * e;
        sumA += a;
        sumE += e;
        maxAbs = absDiff > maxAbs ? absDiff : maxAbs;
        maxRel = rel > maxRel ? rel : maxRel;
        mismatches -= absDiff > limits.atol + limits.rtol * absE; // a true lane is -1
        if constexpr (PassVerify) {
            const D both = (D)((I)a & absMask) + absE;
            const D tolerance = both * (limits.rtol / 2) + limits.atol;
            symmetric -= absDiff > tolerance;
            failures -= absDiff > tolerance * 128;
            zeros -= both <= 0;
        }
        within -= rel < 1e-3;
        I ulp = oa - oe;
        ulp = ulp < 0 ? -ulp : ulp;
        maxUlp = ulp > maxUlp ? ulp : maxUlp;
    }
    // A NaN or Inf on either side makes a sum of squares non-finite (so may a double overflow,
    // which the per-element path then takes just as well): the lanes' sums are dropped.
    for (int k = 0; k < W; ++k)
        if (!std::isfinite(sumAA[k] + sumEE[k])) return false;
    for (int k = 0; k < W; ++k) {
        acc.sumAbs += sumAbs[k];
        acc.sumRel += sumRel[k];
        acc.sumSq += sumSq[k];
        acc.sumAE += sumAE[k];
        acc.sumAA += sumAA[k];
        acc.sumEE += sumEE[k];
        acc.sumA += sumA[k];
        acc.sumE += sumE[k];
        acc.maxAbs = std::max(acc.maxAbs, maxAbs[k]);
        acc.maxRel = std::max(acc.maxRel, maxRel[k]);
        acc.mismatches += mismatches[k];
        acc.symmetricErrors += symmetric[k];
        acc.symmetricFailures += failures[k];
        acc.zeroPairs += zeros[k];
        acc.withinThousandth += within[k];
        acc.maxUlp = std::max<std::int64_t>(acc.maxUlp, maxUlp[k]);
        chunkMaxAbs = std::max(chunkMaxAbs, maxAbs[k]);
    }
    acc.finite += whole;
    for (int i = whole; i < n; ++i) {
        double a, e;
        std::int64_t oa, oe;
        s.one(i, a, e, oa, oe);
        const double diff = a - e, absDiff = std::fabs(diff), absE = std::fabs(e);
        const double rel = absE > limits.floor ? absDiff / absE : 0.0;
        ++acc.finite;
        acc.sumAbs += absDiff;
        acc.sumRel += rel;
        acc.sumSq += diff * diff;
        acc.sumAE += a * e;
        acc.sumAA += a * a;
        acc.sumEE += e * e;
        acc.sumA += a;
        acc.sumE += e;
        acc.maxAbs = std::max(acc.maxAbs, absDiff);
        acc.maxRel = std::max(acc.maxRel, rel);
        acc.mismatches += absDiff > limits.atol + limits.rtol * absE;
        if constexpr (PassVerify) addSymmetric(absDiff, std::fabs(a) + absE, limits, acc);
        acc.withinThousandth += rel < 1e-3;
        acc.maxUlp = std::max(acc.maxUlp, oa > oe ? oa - oe : oe - oa);
        chunkMaxAbs = std::max(chunkMaxAbs, absDiff);
    }
    return true;
}

// The kernel built three times: with AVX-512, eight lanes (and 32 vector registers: the loop's
// sums stay in registers), with AVX2 and for any x86-64, four lanes. Never with FMA (this file
// compiles with -ffp-contract=off): a fused rounding could move an element across the allclose
// bound.
template <class Source>
__attribute__((target("avx512f,avx512vl,avx512dq"))) bool
addFiniteAvx512(const Source& s, int n, const Limits& limits, Partial& acc, double& chunkMaxAbs)
{
    return limits.passVerify ? addFiniteKernel<8, true>(s, n, limits, acc, chunkMaxAbs)
                             : addFiniteKernel<8, false>(s, n, limits, acc, chunkMaxAbs);
}
template <class Source>
__attribute__((target("avx2"))) bool addFiniteAvx2(const Source& s, int n, const Limits& limits,
                                                   Partial& acc, double& chunkMaxAbs)
{
    return limits.passVerify ? addFiniteKernel<4, true>(s, n, limits, acc, chunkMaxAbs)
                             : addFiniteKernel<4, false>(s, n, limits, acc, chunkMaxAbs);
}
template <class Source>
bool addFiniteBaseline(const Source& s, int n, const Limits& limits, Partial& acc,
                       double& chunkMaxAbs)
{
    return limits.passVerify ? addFiniteKernel<4, true>(s, n, limits, acc, chunkMaxAbs)
                             : addFiniteKernel<4, false>(s, n, limits, acc, chunkMaxAbs);
}
template <class Source>
bool addFinite(const Source& s, int n, const Limits& limits, Partial& acc, double& chunkMaxAbs)
{
    static const int level =
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") ? 2
        : __builtin_cpu_supports("avx2")                                         ? 1
                                                                                 : 0;
    if (level == 2) return addFiniteAvx512(s, n, limits, acc, chunkMaxAbs);
    if (level == 1) return addFiniteAvx2(s, n, limits, acc, chunkMaxAbs);
    return addFiniteBaseline(s, n, limits, acc, chunkMaxAbs);
}

// Elements [0, n) of a source, numbered from `first`: the vector loop, then the worst list,
// which sees them in order as the per-element path would; NaN or Inf take that path.
template <class Source> void addChunk(const Source& s, int n, std::int64_t first, Range& r)
{
    double chunkMax = 0;
    if (addFinite(s, n, r.limits, r.acc, chunkMax)) {
        if (chunkMax > r.threshold)
            for (int i = 0; i < n; ++i) {
                double a, e;
                std::int64_t oa, oe;
                s.one(i, a, e, oa, oe);
                const double absDiff = std::fabs(a - e);
                if (absDiff > r.threshold) r.keepWorst(absDiff, first + i, a, e);
            }
        return;
    }
    for (int i = 0; i < n; ++i) {
        double a, e;
        std::int64_t oa, oe;
        s.one(i, a, e, oa, oe);
        r.add<true>(a, e, oa, oe, first + i);
    }
}

// Same dtype on both sides, a chunk at a time.
template <class T>
void addTyped(const T* a, const T* e, std::int64_t begin, std::int64_t end, std::int64_t offset,
              Range& r)
{
    for (std::int64_t start = begin; start < end; start += kChunk) {
        const int n = int(std::min<std::int64_t>(kChunk, end - start));
        if constexpr (std::is_same_v<T, float>) {
            addChunk(FloatSource{a + start, e + start}, n, offset + start, r);
        } else if constexpr (std::is_same_v<T, double>) {
            addChunk(DoubleSource{a + start, e + start}, n, offset + start, r);
        } else {
            ChunkSource c;
            for (int i = 0; i < n; ++i) {
                c.a[i] = Element<T>::value(a[start + i]);
                c.e[i] = Element<T>::value(e[start + i]);
                c.ordA[i] = Element<T>::ordinal(a[start + i]);
                c.ordE[i] = Element<T>::ordinal(e[start + i]);
            }
            addChunk(c, n, offset + start, r);
        }
    }
}

template <class T>
void addRange(const Tensor& a, const Tensor& e, std::int64_t begin, std::int64_t end,
              std::int64_t offset, Range& r)
{
    addTyped(reinterpret_cast<const T*>(a.bytes()), reinterpret_cast<const T*>(e.bytes()), begin,
             end, offset, r);
}

void addAny(const Tensor& a, const Tensor& e, std::int64_t begin, std::int64_t end,
            std::int64_t offset, Range& r)
{
    if (a.dtype() != e.dtype() || a.dtype() == DType::Bool) {
        for (std::int64_t k = begin; k < end; ++k)
            r.add<false>(a.at(k), e.at(k), 0, 0, offset + k);
        return;
    }
    switch (a.dtype()) {
    case DType::Float32:
        return addRange<float>(a, e, begin, end, offset, r);
    case DType::Float64:
        return addRange<double>(a, e, begin, end, offset, r);
    case DType::Float16:
        return addRange<Fp16>(a, e, begin, end, offset, r);
    case DType::BFloat16:
        return addRange<Bf16>(a, e, begin, end, offset, r);
    case DType::Int8:
        return addRange<std::int8_t>(a, e, begin, end, offset, r);
    case DType::UInt8:
        return addRange<std::uint8_t>(a, e, begin, end, offset, r);
    case DType::Int16:
        return addRange<std::int16_t>(a, e, begin, end, offset, r);
    case DType::Int32:
        return addRange<std::int32_t>(a, e, begin, end, offset, r);
    case DType::Int64:
        return addRange<std::int64_t>(a, e, begin, end, offset, r);
    case DType::Bool:
        break;
    }
}

} // namespace

void Partial::merge(const Partial& o)
{
    sumAbs += o.sumAbs;
    sumRel += o.sumRel;
    sumSq += o.sumSq;
    sumAE += o.sumAE;
    sumAA += o.sumAA;
    sumEE += o.sumEE;
    sumA += o.sumA;
    sumE += o.sumE;
    maxAbs = std::max(maxAbs, o.maxAbs);
    maxRel = std::max(maxRel, o.maxRel);
    maxUlp = std::max(maxUlp, o.maxUlp);
    mismatches += o.mismatches;
    symmetricErrors += o.symmetricErrors;
    symmetricFailures += o.symmetricFailures;
    zeroPairs += o.zeroPairs;
    withinThousandth += o.withinThousandth;
    finite += o.finite;
    nanA += o.nanA;
    nanE += o.nanE;
    infA += o.infA;
    infE += o.infE;
    nanBoth += o.nanBoth;
}

void accumulateRange(const Tensor& actual, const Tensor& expected, std::int64_t begin,
                     std::int64_t end, std::int64_t offset, const CompareOptions& options,
                     Partial& partial)
{
    const Limits limits{options.relativeFloor, options.atol, options.rtol, options.topK,
                        options.passVerify};
    Range r{{}, partial, limits};
    if (int(partial.worst.size()) == limits.topK && limits.topK > 0)
        r.threshold = partial.worst.front().absError;
    addAny(actual, expected, begin, end, offset, r);
    partial.merge(r.acc);
}

void accumulateBlock(const Tensor& actual, const Tensor& expected, std::int64_t offset,
                     const CompareOptions& options, std::vector<Partial>& partials)
{
    const std::int64_t n = actual.numel();
    constexpr std::int64_t kMinPerThread = 1 << 20;
    const auto hardware = std::int64_t(std::max(1u, std::thread::hardware_concurrency()));
    const std::int64_t threads = std::clamp<std::int64_t>(n / kMinPerThread, 1, hardware);
    if (partials.size() < std::size_t(threads)) partials.resize(std::size_t(threads));
    auto work = [&](std::int64_t t) {
        accumulateRange(actual, expected, n * t / threads, n * (t + 1) / threads, offset, options,
                        partials[std::size_t(t)]);
    };
    std::vector<std::thread> pool;
    for (std::int64_t t = 1; t < threads; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool)
        th.join();
}

} // namespace ptowb::comparepass
