#include "tensor/compare.h"

#include "rules/shape_functions.h"
#include "tensor/half.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <thread>

namespace ptowb {
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

struct Partial
{
    double sumAbs = 0, sumRel = 0, sumSq = 0, sumAE = 0, sumAA = 0, sumEE = 0;
    double maxAbs = 0, maxRel = 0;
    std::int64_t maxUlp = 0;
    std::int64_t mismatches = 0, withinThousandth = 0, finite = 0;
    std::int64_t nanA = 0, nanE = 0, infA = 0, infE = 0;
    // Min-heap on absError of the K largest errors seen.
    std::vector<std::pair<double, std::int64_t>> worst;

    // Adds another range's sums and counts; the worst lists are merged by the caller.
    void merge(const Partial& o)
    {
        sumAbs += o.sumAbs;
        sumRel += o.sumRel;
        sumSq += o.sumSq;
        sumAE += o.sumAE;
        sumAA += o.sumAA;
        sumEE += o.sumEE;
        maxAbs = std::max(maxAbs, o.maxAbs);
        maxRel = std::max(maxRel, o.maxRel);
        maxUlp = std::max(maxUlp, o.maxUlp);
        mismatches += o.mismatches;
        withinThousandth += o.withinThousandth;
        finite += o.finite;
        nanA += o.nanA;
        nanE += o.nanE;
        infA += o.infA;
        infE += o.infE;
    }
};

void keepWorst(Partial& p, int k, double absError, std::int64_t index)
{
    if (k <= 0) return;
    auto greater = [](const auto& x, const auto& y) { return x.first > y.first; };
    if (int(p.worst.size()) < k) {
        p.worst.emplace_back(absError, index);
        std::push_heap(p.worst.begin(), p.worst.end(), greater);
    } else if (absError > p.worst.front().first) {
        std::pop_heap(p.worst.begin(), p.worst.end(), greater);
        p.worst.back() = {absError, index};
        std::push_heap(p.worst.begin(), p.worst.end(), greater);
    }
}

// The one loop: every metric for elements [begin, end). getA/getE return the pair's values
// as double and their ULP ordinals. Accumulators are locals so they stay in registers.
template <bool Ulps, class GetA, class GetE>
void accumulate(GetA getA, GetE getE, std::int64_t begin, std::int64_t end, const CompareOptions& o,
                Partial& p)
{
    const double floor = o.relativeFloor, atol = o.atol, rtol = o.rtol;
    Partial acc;          // a local, so that its fields can live in registers
    double threshold = 0; // smallest error worth a look for the worst list, once the list is full
    for (std::int64_t k = begin; k < end; ++k) {
        const auto [a, ordA] = getA(k);
        const auto [e, ordE] = getE(k);
        const double diff = a - e;
        // One test for the common case: a finite difference means both sides are finite.
        // (Only a double overflow gives an infinite difference of finite values; re-checked.)
        if (!std::isfinite(diff) && !(std::isfinite(a) && std::isfinite(e))) {
            acc.nanA += std::isnan(a);
            acc.nanE += std::isnan(e);
            acc.infA += std::isinf(a);
            acc.infE += std::isinf(e);
            const bool sameInfinity = std::isinf(a) && std::isinf(e) && (a > 0) == (e > 0);
            if (!sameInfinity) {
                ++acc.mismatches;
                keepWorst(p, o.topK, HUGE_VAL, k);
                if (int(p.worst.size()) == o.topK) threshold = p.worst.front().first;
            }
            continue;
        }
        ++acc.finite;
        const double absDiff = std::fabs(diff);
        const double absE = std::fabs(e);
        const double rel = absE > floor ? absDiff / absE : 0.0;
        acc.sumAbs += absDiff;
        acc.sumRel += rel;
        acc.sumSq += diff * diff;
        acc.sumAE += a * e;
        acc.sumAA += a * a;
        acc.sumEE += e * e;
        acc.maxAbs = std::max(acc.maxAbs, absDiff);
        acc.maxRel = std::max(acc.maxRel, rel);
        acc.mismatches += absDiff > atol + rtol * absE;
        acc.withinThousandth += rel < 1e-3;
        if constexpr (Ulps)
            acc.maxUlp = std::max(acc.maxUlp, ordA > ordE ? ordA - ordE : ordE - ordA);
        if (absDiff > threshold) {
            keepWorst(p, o.topK, absDiff, k);
            if (int(p.worst.size()) == o.topK) threshold = p.worst.front().first;
        }
    }
    p.merge(acc);
}

template <class T> auto typedGetter(const Tensor& t)
{
    const T* data = reinterpret_cast<const T*>(t.bytes());
    return [data](std::int64_t k) {
        return std::pair<double, std::int64_t>{Element<T>::value(data[k]),
                                               Element<T>::ordinal(data[k])};
    };
}

auto genericGetter(const Tensor& t)
{
    return [&t](std::int64_t k) { return std::pair<double, std::int64_t>{t.at(k), 0}; };
}

template <class F> void forEachRange(std::int64_t n, F work, std::vector<Partial>& partials)
{
    constexpr std::int64_t kMinPerThread = 1 << 20;
    const auto hardware = std::int64_t(std::max(1u, std::thread::hardware_concurrency()));
    const std::int64_t threads = std::clamp<std::int64_t>(n / kMinPerThread, 1, hardware);
    partials.resize(std::size_t(threads));
    std::vector<std::thread> pool;
    for (std::int64_t t = 1; t < threads; ++t)
        pool.emplace_back(
            [&, t] { work(n * t / threads, n * (t + 1) / threads, partials[std::size_t(t)]); });
    work(0, n / threads, partials[0]);
    for (auto& th : pool)
        th.join();
}

template <class T>
void runTyped(const Tensor& a, const Tensor& e, const CompareOptions& o,
              std::vector<Partial>& partials)
{
    auto getA = typedGetter<T>(a);
    auto getE = typedGetter<T>(e);
    forEachRange(
        a.numel(),
        [&](std::int64_t b, std::int64_t end, Partial& p) {
            accumulate<true>(getA, getE, b, end, o, p);
        },
        partials);
}

void run(const Tensor& a, const Tensor& e, const CompareOptions& o, std::vector<Partial>& partials)
{
    if (a.dtype() != e.dtype() || a.dtype() == DType::Bool) {
        auto getA = genericGetter(a);
        auto getE = genericGetter(e);
        forEachRange(
            a.numel(),
            [&](std::int64_t b, std::int64_t end, Partial& p) {
                accumulate<false>(getA, getE, b, end, o, p);
            },
            partials);
        return;
    }
    switch (a.dtype()) {
    case DType::Float32:
        return runTyped<float>(a, e, o, partials);
    case DType::Float64:
        return runTyped<double>(a, e, o, partials);
    case DType::Float16:
        return runTyped<Fp16>(a, e, o, partials);
    case DType::BFloat16:
        return runTyped<Bf16>(a, e, o, partials);
    case DType::Int8:
        return runTyped<std::int8_t>(a, e, o, partials);
    case DType::UInt8:
        return runTyped<std::uint8_t>(a, e, o, partials);
    case DType::Int16:
        return runTyped<std::int16_t>(a, e, o, partials);
    case DType::Int32:
        return runTyped<std::int32_t>(a, e, o, partials);
    case DType::Int64:
        return runTyped<std::int64_t>(a, e, o, partials);
    case DType::Bool:
        break;
    }
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

Comparison compareTensors(const Tensor& actual, const Tensor& expected,
                          const CompareOptions& options)
{
    Comparison c;
    c.actualShape = actual.shape();
    c.expectedShape = expected.shape();
    c.actualDType = actual.dtype();
    c.expectedDType = expected.dtype();
    c.shapesMatch = actual.shape() == expected.shape();
    if (!c.shapesMatch) return c;

    std::vector<Partial> partials;
    run(actual, expected, options, partials);
    Partial total;
    std::vector<std::pair<double, std::int64_t>> worst;
    for (const Partial& p : partials) {
        total.merge(p);
        worst.insert(worst.end(), p.worst.begin(), p.worst.end());
    }
    ErrorMetrics& m = c.metrics;
    const std::int64_t n = actual.numel();
    const double finite = double(std::max<std::int64_t>(total.finite, 1));
    m.elements = n;
    m.finitePairs = total.finite;
    m.maxAbsError = total.maxAbs;
    m.meanAbsError = total.sumAbs / finite;
    m.maxRelError = total.maxRel;
    m.meanRelError = total.sumRel / finite;
    m.rmse = std::sqrt(total.sumSq / finite);
    const double norms = std::sqrt(total.sumAA) * std::sqrt(total.sumEE);
    m.cosine = norms > 0 ? total.sumAE / norms : (total.sumAA == total.sumEE ? 1.0 : 0.0);
    m.relEuclidean =
        total.sumEE > 0 ? std::sqrt(total.sumSq / total.sumEE) : (total.sumSq > 0 ? HUGE_VAL : 0.0);
    m.mismatchCount = total.mismatches;
    m.mismatchRatio = n ? double(total.mismatches) / double(n) : 0.0;
    m.doubleThousandthRatio = n ? double(total.withinThousandth) / double(n) : 1.0;
    if (actual.dtype() == expected.dtype() && actual.dtype() != DType::Bool)
        m.maxUlp = double(total.maxUlp);
    m.nanActual = total.nanA;
    m.nanExpected = total.nanE;
    m.infActual = total.infA;
    m.infExpected = total.infE;

    std::sort(worst.begin(), worst.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    if (int(worst.size()) > options.topK) worst.resize(std::size_t(std::max(options.topK, 0)));
    for (const auto& [err, k] : worst)
        c.worst.push_back({actual.unravel(k), actual.at(k), expected.at(k), err});
    return c;
}

Criteria defaultCriteria(DType dtype)
{
    Criteria c;
    c.names = {"allclose"};
    switch (dtype) {
    case DType::Float16:
        c.rtol = 1e-3;
        c.atol = 1e-3;
        break;
    case DType::BFloat16:
        c.rtol = 1e-2;
        c.atol = 1e-2;
        break;
    case DType::Float32:
        c.rtol = 1e-3;
        c.atol = 1e-3;
        break;
    case DType::Float64:
        c.rtol = 1e-7;
        c.atol = 1e-7;
        break;
    default:
        c.rtol = 0;
        c.atol = 0;
        break; // integers and bool compare exactly
    }
    return c;
}

Criteria criteriaFor(const ToleranceSpec& tolerance, DType dtype)
{
    Criteria c = defaultCriteria(dtype);
    if (auto it = tolerance.perDType.find(dtype); it != tolerance.perDType.end()) {
        c.rtol = it->second.rtol;
        c.atol = it->second.atol;
    }
    if (!tolerance.criteria.empty()) c.names = tolerance.criteria;
    if (tolerance.maxErrorRatio) c.maxErrorRatio = *tolerance.maxErrorRatio;
    if (tolerance.minCosine) c.minCosine = *tolerance.minCosine;
    return c;
}

std::string Criteria::describe() const
{
    std::string out;
    for (const std::string& name : names) {
        if (!out.empty()) out += " and ";
        if (name == "allclose")
            out += "allclose(rtol=" + number(rtol) + ", atol=" + number(atol) + ")";
        else if (name == "ratio")
            out += "mismatch_ratio <= " + number(maxErrorRatio) + " (rtol=" + number(rtol) +
                   ", atol=" + number(atol) + ")";
        else if (name == "cosine")
            out += "cosine >= " + number(minCosine);
        else if (name == "double_thousandth")
            out += "double_thousandth_ratio > " + number(minDoubleThousandth);
        else
            out += name;
    }
    return out;
}

Verdict judge(const Comparison& c, const Criteria& criteria)
{
    Verdict v;
    v.rule = criteria.describe();
    if (!c.shapesMatch) {
        v.reason = "shape " + shapefn::toString(c.actualShape) + " differs from the expected " +
                   shapefn::toString(c.expectedShape);
        return v;
    }
    if (c.actualDType != c.expectedDType) {
        v.reason = "dtype " + std::string(dtypeName(c.actualDType)) +
                   " differs from the expected " + std::string(dtypeName(c.expectedDType));
        return v;
    }
    const ErrorMetrics& m = c.metrics;
    const std::int64_t nonFinite = m.nanActual + m.infActual - (m.nanExpected + m.infExpected);
    if (m.nanActual > m.nanExpected || nonFinite > 0) {
        v.reason = std::to_string(m.nanActual) + " NaN and " + std::to_string(m.infActual) +
                   " Inf in the output where the reference has " + std::to_string(m.nanExpected) +
                   " and " + std::to_string(m.infExpected);
        return v;
    }
    for (const std::string& name : criteria.names) {
        if (name == "allclose" && m.mismatchCount > 0) {
            v.reason = std::to_string(m.mismatchCount) + " of " + std::to_string(m.elements) +
                       " elements exceed atol + rtol*|expected| (max abs error " +
                       number(m.maxAbsError) + ")";
            return v;
        }
        if (name == "ratio" && m.mismatchRatio > criteria.maxErrorRatio) {
            v.reason = "mismatch ratio " + number(m.mismatchRatio) + " exceeds " +
                       number(criteria.maxErrorRatio);
            return v;
        }
        if (name == "cosine" && !(m.cosine >= criteria.minCosine)) {
            v.reason =
                "cosine similarity " + number(m.cosine) + " is below " + number(criteria.minCosine);
            return v;
        }
        if (name == "double_thousandth" &&
            !(m.doubleThousandthRatio > criteria.minDoubleThousandth)) {
            v.reason = "only " + number(m.doubleThousandthRatio) +
                       " of elements are within 0.1% (needs > " +
                       number(criteria.minDoubleThousandth) + ")";
            return v;
        }
    }
    v.pass = true;
    v.reason = "max abs error " + number(m.maxAbsError) + ", cosine " + number(m.cosine);
    return v;
}

} // namespace ptowb
