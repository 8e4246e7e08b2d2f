#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ptowb {

// Which 2-D slice of an N-D output to look at: two axes, and an index for every other axis.
struct SliceSpec
{
    int rowAxis = 0;
    int colAxis = 1;
    std::vector<std::int64_t> fixed; // one per axis; ignored for the two shown axes
    bool relative = false;           // |a - e| / |e| (0 where |e| <= eps) instead of |a - e|
};

// The error over a slice, max-pooled into at most maxRows x maxCols cells so that the worst
// element of a 4096 x 4096 output stays visible. NaN/Inf disagreements count as infinite error.
struct ErrorMap
{
    std::int64_t rows = 0, cols = 0;         // of the slice
    std::int64_t cellRows = 1, cellCols = 1; // slice elements per cell
    int gridRows = 0, gridCols = 0;
    std::vector<float> cells; // gridRows x gridCols, row-major
    double maxError = 0;
    std::vector<std::int64_t> worstIndex; // N-d index of the largest error in the slice
    std::string error;                    // why no map could be made

    float cell(int r, int c) const
    {
        return cells[std::size_t(r) * std::size_t(gridCols) + std::size_t(c)];
    }
};

ErrorMap computeErrorMap(const Tensor& actual, const Tensor& expected, const SliceSpec& slice,
                         int maxRows, int maxCols);

// |value| over a slice, pooled the same way: the heatmap of an intermediate value.
ErrorMap computeMagnitudeMap(const Tensor& value, const SliceSpec& slice, int maxRows, int maxCols);

// Summary of one tensor's values, NaN and Inf left out of min/max/mean/std.
struct ValueStats
{
    std::int64_t count = 0, nanCount = 0, infCount = 0, zeroCount = 0;
    double min = 0, max = 0, mean = 0, stddev = 0;
};
ValueStats valueStats(const Tensor& value);

// The N-d index of slice element (row, col).
std::vector<std::int64_t> sliceIndex(const SliceSpec& slice, std::size_t rank, std::int64_t row,
                                     std::int64_t col);
std::int64_t flatIndex(const std::vector<std::int64_t>& shape,
                       const std::vector<std::int64_t>& index);

// Counts of |a - e| (or of the relative error, as SliceSpec::relative defines it) over
// log10-spaced bins from 1e-8 to 1e+2 (exact matches and non-finite errors in their own first
// and last bins), for the error histogram.
struct ErrorHistogram
{
    std::vector<double> edges;        // bins + 1 edges, log10 scale: -8 ... 2
    std::vector<std::int64_t> counts; // [exact, bins..., non-finite]
    bool relative = false;
};
ErrorHistogram errorHistogram(const Tensor& actual, const Tensor& expected, int bins = 20,
                              bool relative = false);

} // namespace ptowb
