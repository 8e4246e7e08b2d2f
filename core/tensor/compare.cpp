#include "tensor/compare.h"

#include "rules/shape_functions.h"
#include "tensor/compare_pass.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ptowb {
namespace {

using comparepass::Partial;
using comparepass::WorstEntry;

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string format3(double v)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// The fit of actual against expected, when it names the error (see Comparison::uniformError).
std::optional<UniformError> uniformErrorOf(const Partial& t, const ErrorMetrics& m,
                                           const CompareOptions& o)
{
    if (m.mismatchCount == 0 || t.finite != m.elements || t.finite < 2) return std::nullopt;
    const double n = double(t.finite);
    const double meanA = t.sumA / n, meanE = t.sumE / n;
    const double sxx = t.sumEE - t.sumE * meanE; // n × variance of expected
    const double sxy = t.sumAE - t.sumE * meanA;
    const double syy = t.sumAA - t.sumA * meanA;
    if (!(sxx > 0) || !std::isfinite(sxx + sxy + syy)) return std::nullopt;
    UniformError u;
    u.scale = sxy / sxx;
    u.offset = meanA - u.scale * meanE;
    u.residualRms = std::sqrt(std::max(0.0, syy - u.scale * sxy) / n);
    const double rmsExpected = std::sqrt(t.sumEE / n);
    if (u.residualRms > o.atol + o.rtol * rmsExpected || u.residualRms > 0.01 * m.rmse)
        return std::nullopt;
    // A scale within rtol of 1 or an offset within atol of 0 is no part of the error.
    const bool scaled = std::fabs(u.scale - 1) > o.rtol;
    const bool offset = std::fabs(u.offset) > o.atol;
    if (!scaled && !offset) return std::nullopt;
    if (!scaled) u.scale = 1;
    if (!offset) u.offset = 0;
    return u;
}

} // namespace

struct BlockComparison::State
{
    Comparison comparison;
    CompareOptions options;
    std::vector<Partial> partials;
    std::int64_t done = 0; // elements added so far
};

BlockComparison::BlockComparison(std::vector<std::int64_t> actualShape, DType actualDType,
                                 std::vector<std::int64_t> expectedShape, DType expectedDType,
                                 const CompareOptions& options, int lanes)
    : m_state(std::make_unique<State>())
{
    m_state->partials.resize(std::size_t(std::max(lanes, 1)));
    Comparison& c = m_state->comparison;
    c.actualShape = std::move(actualShape);
    c.expectedShape = std::move(expectedShape);
    c.actualDType = actualDType;
    c.expectedDType = expectedDType;
    c.shapesMatch = c.actualShape == c.expectedShape;
    m_state->options = options;
}

BlockComparison::~BlockComparison() = default;

bool BlockComparison::comparable() const
{
    return m_state->comparison.shapesMatch;
}

void BlockComparison::add(const Tensor& actualBlock, const Tensor& expectedBlock)
{
    comparepass::accumulateBlock(actualBlock, expectedBlock, m_state->done, m_state->options,
                                 m_state->partials);
    m_state->done += actualBlock.numel();
}

void BlockComparison::addAt(int lane, std::int64_t first, const Tensor& actualBlock,
                            const Tensor& expectedBlock)
{
    comparepass::accumulateRange(actualBlock, expectedBlock, 0, actualBlock.numel(), first,
                                 m_state->options, m_state->partials[std::size_t(lane)]);
}

Comparison BlockComparison::finish()
{
    Comparison c = std::move(m_state->comparison);
    if (!c.shapesMatch) return c;
    const CompareOptions& options = m_state->options;
    Partial total;
    std::vector<WorstEntry> worst;
    for (const Partial& p : m_state->partials) {
        total.merge(p);
        worst.insert(worst.end(), p.worst.begin(), p.worst.end());
    }
    ErrorMetrics& m = c.metrics;
    const std::int64_t n = elementCount(c.actualShape);
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
    m.passVerifyErrors = total.symmetricErrors;
    m.passVerifyFailures = total.symmetricFailures;
    m.zeroPairs = total.zeroPairs;
    m.passVerifyCounted = options.passVerify;
    if (c.actualDType == c.expectedDType && c.actualDType != DType::Bool)
        m.maxUlp = double(total.maxUlp);
    m.nanActual = total.nanA;
    m.nanExpected = total.nanE;
    m.infActual = total.infA;
    m.infExpected = total.infE;
    m.nanBoth = total.nanBoth;
    c.uniformError = uniformErrorOf(total, m, options);

    std::sort(worst.begin(), worst.end(), [](const WorstEntry& x, const WorstEntry& y) {
        return x.absError != y.absError ? x.absError > y.absError : x.index < y.index;
    });
    if (int(worst.size()) > options.topK) worst.resize(std::size_t(std::max(options.topK, 0)));
    for (const WorstEntry& w : worst)
        c.worst.push_back({unravelIndex(c.actualShape, w.index), w.actual, w.expected, w.absError});
    return c;
}

Comparison compareTensors(const Tensor& actual, const Tensor& expected,
                          const CompareOptions& options)
{
    BlockComparison blocks(actual.shape(), actual.dtype(), expected.shape(), expected.dtype(),
                           options);
    if (blocks.comparable()) blocks.add(actual, expected);
    return blocks.finish();
}

std::string UniformError::describe() const
{
    std::string out = "actual ≈ ";
    out += scale == 1 ? std::string("expected") : format3(scale) + " × expected";
    if (offset != 0) out += (offset > 0 ? " + " : " − ") + number(std::fabs(offset));
    return out;
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

CompareOptions compareOptionsFor(const Criteria& criteria)
{
    CompareOptions options;
    options.rtol = criteria.rtol;
    options.atol = criteria.atol;
    options.passVerify = std::find(criteria.names.begin(), criteria.names.end(), "pass_verify") !=
                         criteria.names.end();
    return options;
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
        else if (name == "pass_verify")
            out += "pass_verify(rtol=" + number(rtol) + ", atol=" + number(atol) + ")";
        else if (name == "cosine")
            out += "cosine >= " + number(minCosine);
        else if (name == "double_thousandth")
            out += "double_thousandth_ratio > " + number(minDoubleThousandth);
        else
            out += name;
    }
    return out;
}

namespace {

// A failed verdict says what uniform error explains it, if one does.
Verdict named(Verdict v, const Comparison& c)
{
    if (c.uniformError) v.reason += "; " + c.uniformError->describe();
    return v;
}

// Mismatches that are NaN on both sides: a kernel that passes NaN through as its reference does
// (a where, a select) fails only by them, with a max abs error of 0 over the other elements.
std::string bothNaN(const ErrorMetrics& m)
{
    if (m.nanBoth == 0) return {};
    return "; " + std::to_string(m.nanBoth) + " of them NaN on both sides, which allclose counts " +
           "as unequal";
}

} // namespace

std::int64_t passVerifyAllowance(const ErrorMetrics& m, const Criteria& criteria)
{
    // As PyPTO computes it: its tolerances are floats; a share of min(rtol, atol) of the
    // counted pairs, else (when that rounds down to none) half the square root of their
    // number, at most 16.
    const std::int64_t counted = m.elements - m.zeroPairs;
    const auto share = std::int64_t(double(counted) *
                                    double(std::min(float(criteria.rtol), float(criteria.atol))));
    if (share > 0) return share;
    return std::min<std::int64_t>(16, std::int64_t(std::pow(double(counted), 0.5)) / 2);
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
                       number(m.maxAbsError) + ")" + bothNaN(m);
            return named(v, c);
        }
        if (name == "ratio" && m.mismatchRatio > criteria.maxErrorRatio) {
            v.reason = "mismatch ratio " + number(m.mismatchRatio) + " exceeds " +
                       number(criteria.maxErrorRatio) + bothNaN(m);
            return named(v, c);
        }
        if (name == "pass_verify" && !m.passVerifyCounted) {
            // Judging uncounted pairs would pass anything: say so rather than pass.
            v.reason = "pass_verify cannot judge a comparison made without its counts "
                       "(compare with compareOptionsFor(criteria))";
            return named(v, c);
        }
        if (name == "pass_verify") {
            const std::int64_t allowed = passVerifyAllowance(m, criteria);
            if (m.passVerifyFailures > 0) {
                v.reason = std::to_string(m.passVerifyFailures) + " of " +
                           std::to_string(m.elements) +
                           " elements are off by more than 128 times the tolerance (max abs "
                           "error " +
                           number(m.maxAbsError) + ")";
                return named(v, c);
            }
            if (m.passVerifyErrors > allowed) {
                v.reason = std::to_string(m.passVerifyErrors) + " of " +
                           std::to_string(m.elements) +
                           " elements exceed atol + rtol*(|actual|+|expected|)/2, more than the " +
                           std::to_string(allowed) + " allowed (max abs error " +
                           number(m.maxAbsError) + ")";
                return named(v, c);
            }
        }
        if (name == "cosine" && !(m.cosine >= criteria.minCosine)) {
            v.reason =
                "cosine similarity " + number(m.cosine) + " is below " + number(criteria.minCosine);
            return named(v, c);
        }
        if (name == "double_thousandth" &&
            !(m.doubleThousandthRatio > criteria.minDoubleThousandth)) {
            v.reason = "only " + number(m.doubleThousandthRatio) +
                       " of elements are within 0.1% (needs > " +
                       number(criteria.minDoubleThousandth) + ")";
            return named(v, c);
        }
    }
    v.pass = true;
    v.reason = "max abs error " + number(m.maxAbsError) + ", cosine " + number(m.cosine);
    return v;
}

} // namespace ptowb
