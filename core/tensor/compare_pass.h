#pragma once

#include "tensor/compare.h"

#include <cstdint>
#include <vector>

namespace ptowb::comparepass {

// The one pass of a comparison: what every metric needs, summed over a range of elements.
struct WorstEntry
{
    double absError = 0;
    std::int64_t index = 0; // flat, over the whole tensor
    double actual = 0, expected = 0;
};

struct Partial
{
    // Over finite pairs: the error sums, and the sums a least-squares fit of actual against
    // expected needs (sumA, sumE with sumAE, sumAA, sumEE).
    double sumAbs = 0, sumRel = 0, sumSq = 0, sumAE = 0, sumAA = 0, sumEE = 0, sumA = 0, sumE = 0;
    double maxAbs = 0, maxRel = 0;
    std::int64_t maxUlp = 0;
    std::int64_t mismatches = 0, withinThousandth = 0, finite = 0;
    // PyPTO's pass verification (ErrorMetrics::passVerify*): pairs beyond its tolerance, beyond
    // 128 times it, and pairs that are both zero.
    std::int64_t symmetricErrors = 0, symmetricFailures = 0, zeroPairs = 0;
    std::int64_t nanA = 0, nanE = 0, infA = 0, infE = 0, nanBoth = 0;
    std::vector<WorstEntry> worst; // a heap of the K largest errors seen (keepWorst)

    // Adds another range's sums and counts; the worst lists are merged by the caller.
    void merge(const Partial& other);
};

// Accumulates elements [begin, end) of the flat blocks, numbered from `offset` + begin, into
// `partial`, on the calling thread.
void accumulateRange(const Tensor& actual, const Tensor& expected, std::int64_t begin,
                     std::int64_t end, std::int64_t offset, const CompareOptions& options,
                     Partial& partial);

// Accumulates the flat blocks `actual` and `expected` (equal element counts; the dtypes of the
// whole comparison), whose first element is element `offset` of the whole, into `partials`: one
// per thread the block is split across, kept from block to block.
void accumulateBlock(const Tensor& actual, const Tensor& expected, std::int64_t offset,
                     const CompareOptions& options, std::vector<Partial>& partials);

} // namespace ptowb::comparepass
